import type zh from '../zh-CN/auth';
import type { Shape } from '../shape';

export default {
  title: 'Ad Delivery System',
  subtitle: 'Meta ads for short dramas and e-commerce',
  account: 'Account',
  password: 'Password',
  accountRequired: 'Enter your account',
  passwordRequired: 'Enter your password',
  submit: 'Log in',
  forgot: 'Forgot your password? Ask an administrator to reset it.',
} satisfies Shape<typeof zh>;
