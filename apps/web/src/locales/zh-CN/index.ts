import auth from './auth';
import common from './common';
import home from './home';
import sys from './sys';

export default { common, auth, home, sys };
