export default {
  title: '广告投放系统',
  subtitle: '短剧与电商 Meta 广告投放管理',
  account: '账号',
  password: '密码',
  accountRequired: '请输入账号',
  passwordRequired: '请输入密码',
  submit: '登录',
  forgot: '忘记密码请联系管理员重置',
};
