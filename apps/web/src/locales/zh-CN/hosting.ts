/** 托管管理 / 广告托管. */
export default {
  explain: {
    title: '托管是什么',
    body: '加入托管的广告账户将由自动规则看管：规则按设定的条件检查账户里的广告系列和广告组，条件满足时自动执行动作，并把每次执行记录下来。',
    stopLoss: '止损',
    stopLossBody: '例如 24 小时内花费 ≥ 30 且没有购买、或 48 小时后 ROI < 0.3 时暂停，当天停、次日可自动恢复。',
    budgetCap: '预算上限',
    budgetCapBody: '限制广告组的日预算和调整频率，避免超支或触发平台的预算修改限制。',
    audit: '全程留痕',
    auditBody: '每次执行都会记录触发它的数据、修改前后的值和结果，可随时查看。',
    notYet: '规则引擎尚未上线',
    notYetBody: '目前没有任何规则在运行。加入或移出托管只是标记这些账户，不会对 Facebook 上的广告做任何改动；规则引擎上线后，规则只会作用于托管中的账户。',
  },
  stats: {
    hosted: '托管中',
    available: '未托管',
    rules: '运行中的规则',
  },
  tabs: {
    hosted: '托管中',
    available: '未托管',
  },
  add: '加入托管',
  remove: '移出托管',
  addSelected: '加入托管',
  pickAccounts: '选择要托管的账户',
  removeSelected: '移出托管',
  emptyHosted: '还没有托管中的广告账户 —— 在「未托管」中选择账户加入。',
  emptyAvailable: '没有可加入托管的广告账户 —— 连接个号并同步后，广告账户会出现在这里。',
  confirmAdd: {
    title_one: '将 {{count}} 个广告账户加入托管？',
    title_other: '将 {{count}} 个广告账户加入托管？',
    body: '加入后，规则引擎上线时会看管这些账户。目前没有规则在运行，Facebook 上的广告不会有任何变化。',
  },
  confirmRemove: {
    title_one: '将 {{count}} 个广告账户移出托管？',
    title_other: '将 {{count}} 个广告账户移出托管？',
    body: '移出后，规则不会再作用于这些账户。Facebook 上的广告不会有任何变化。',
  },
  added: '已将 {{count}} 个账户加入托管',
  removed: '已将 {{count}} 个账户移出托管',
};
