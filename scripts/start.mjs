// `npm start`: install what is missing, build, then serve the app and /api (migrations run at boot).
import { ensureBuild, ensureInstall, log, supervise } from './lib.mjs';

ensureInstall();
ensureBuild();
log('starting the server…');
supervise(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts']);
