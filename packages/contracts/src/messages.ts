/**
 * Server error messages by key, in both languages. The server picks one by Accept-Language;
 * the web app shows what the server sends, so both sides say the same thing.
 */
export type Lang = 'zh' | 'en';

export const errorMessages = {
  INTERNAL: { zh: '服务器内部错误，请稍后重试；若持续出现请联系管理员', en: 'Internal server error. Try again later; if it persists, contact an administrator.' },
  VALIDATION: { zh: '提交的内容有误：{detail}', en: 'Invalid input: {detail}' },
  BAD_JSON: { zh: '请求体不是合法的 JSON', en: 'The request body is not valid JSON.' },
  NOT_FOUND_ROUTE: { zh: '接口不存在：{path}', en: 'No such API: {path}' },
  UNSUPPORTED_MEDIA_TYPE: { zh: '请求体须为 JSON（Content-Type: application/json）', en: 'The request body must be JSON (Content-Type: application/json).' },
  PAYLOAD_TOO_LARGE: { zh: '请求体过大', en: 'The request body is too large.' },
  UNAUTHORIZED: { zh: '请先登录', en: 'Please log in.' },
  SESSION_EXPIRED: { zh: '登录已失效，请重新登录', en: 'Your session has ended. Please log in again.' },
  FORBIDDEN: { zh: '没有权限执行此操作', en: 'You are not allowed to do this.' },
  FORBIDDEN_SCOPE: { zh: '没有权限访问该数据', en: 'This data is outside your scope.' },
  LOGIN_FAILED: { zh: '账号或密码错误', en: 'Wrong account or password.' },
  LOGIN_LOCKED: { zh: '登录失败次数过多，请 {minutes} 分钟后再试', en: 'Too many failed logins. Try again in {minutes} minutes.' },
  ACCOUNT_DISABLED: { zh: '该账号已停用，请联系管理员', en: 'This account is disabled. Contact an administrator.' },
  USER_NOT_FOUND: { zh: '用户不存在或已删除', en: 'The user does not exist or was deleted.' },
  ACCOUNT_TAKEN: { zh: '账号「{account}」已存在', en: 'The account "{account}" already exists.' },
  CANNOT_DELETE_SELF: { zh: '不能删除自己的账号', en: 'You cannot delete your own account.' },
  CANNOT_DISABLE_SELF: { zh: '不能停用自己的账号', en: 'You cannot disable your own account.' },
  CANNOT_CHANGE_OWN_ADMIN: { zh: '不能修改自己的管理员身份', en: 'You cannot change your own admin level.' },
  CANNOT_CHANGE_OWN_LEADER: { zh: '不能修改自己的负责人身份，请联系管理员', en: 'You cannot change your own leader flag. Ask a manager.' },
  CANNOT_MANAGE_USER: { zh: '无权管理该用户', en: 'You may not manage this user.' },
  CANNOT_GRANT_MANAGER: { zh: '只有管理员可以设置管理员身份', en: 'Only managers can make someone a manager.' },
  CANNOT_GRANT_PATHS: { zh: '不能授予自己没有的权限：{paths}', en: 'You cannot grant permissions you do not have: {paths}' },
  SUPER_ADMIN_PROTECTED: { zh: '超级管理员账号不能在此修改', en: 'The super admin account cannot be changed here.' },
  DEPARTMENT_NOT_FOUND: { zh: '部门不存在', en: 'The department does not exist.' },
  DEPARTMENT_NAME_TAKEN: { zh: '同级下已有名为「{name}」的部门', en: 'A department named "{name}" already exists at this level.' },
  DEPARTMENT_HAS_CHILDREN: { zh: '该部门下还有 {count} 个子部门，请先移走或删除子部门', en: 'This department still has {count} sub-departments. Move or delete them first.' },
  DEPARTMENT_HAS_MEMBERS: { zh: '该部门下还有 {count} 名成员，请先将成员调到其他部门', en: 'This department still has {count} members. Move them to another department first.' },
  DEPARTMENT_CYCLE: { zh: '不能把部门移动到它自己或它的下级部门之下', en: 'A department cannot be moved under itself or one of its sub-departments.' },
  ROLE_NOT_FOUND: { zh: '角色不存在', en: 'The role does not exist.' },
  ROLE_NAME_TAKEN: { zh: '角色名「{name}」已存在', en: 'The role name "{name}" already exists.' },
  UNKNOWN_PATHS: { zh: '未知的页面路径：{paths}', en: 'Unknown page paths: {paths}' },
  LEADER_NOT_FOUND: { zh: '负责人不存在或已停用', en: 'The leader does not exist or is disabled.' },
  // Authorization and hosting (docs/api-assets.md).
  PERSONAL_ACCOUNT_NOT_FOUND: { zh: '个号不存在或已断开', en: 'The personal account does not exist or was disconnected.' },
  PERSONAL_ACCOUNT_CONNECTED_ELSEWHERE: { zh: '该 Facebook 用户已由您权限范围外的同事接入，请联系其负责人或管理员', en: 'This Facebook user is already connected by someone outside your scope. Ask their leader or a manager.' },
  PERSONAL_ACCOUNT_DISCONNECTED: { zh: '个号「{name}」已断开，无法同步', en: 'The personal account "{name}" is disconnected and cannot be synced.' },
  PERSONAL_ACCOUNT_SYNC_AUTH: { zh: '个号「{name}」的令牌已失效，已标记为失效并停止同步：{reason}', en: 'The token of the personal account "{name}" no longer works; the account is marked invalid and its sync stopped: {reason}' },
  PERSONAL_ACCOUNT_SYNC_FAILED: { zh: '个号「{name}」同步失败：{reason}', en: 'Sync of the personal account "{name}" failed: {reason}' },
  OWNER_REQUIRED: { zh: '只有管理员可以清空负责人', en: 'Only managers can remove the owner.' },
  TOKEN_REJECTED: { zh: '令牌无效，未保存：{reason}', en: 'The token was refused and not saved: {reason}' },
  TOKEN_NOT_USER: { zh: '只能接入用户或系统用户令牌，这是 {type} 令牌', en: 'Only user or system-user tokens can be connected; this is a {type} token.' },
  TOKEN_INVALID: { zh: '平台拒绝了该令牌（已过期、被撤销或密码已修改），请重新授权', en: 'The platform refused the token (expired, revoked or password changed). Connect the account again.' },
  TOKEN_INVALID_DETAIL: { zh: '平台拒绝了该令牌，请重新授权：{detail}', en: 'The platform refused the token. Connect the account again: {detail}' },
  TOKEN_EXPIRED: { zh: '令牌已于 {at} 过期，请重新授权', en: 'The token expired on {at}. Connect the account again.' },
  TOKEN_EXPIRING: { zh: '令牌将于 {at} 过期，请尽快重新授权', en: 'The token expires on {at}. Connect the account again soon.' },
  DATA_ACCESS_EXPIRED: { zh: '数据访问授权已于 {at} 过期，请重新授权', en: 'Data access expired on {at}. Connect the account again.' },
  DATA_ACCESS_EXPIRING: { zh: '数据访问授权将于 {at} 过期，请尽快重新授权', en: 'Data access expires on {at}. Connect the account again soon.' },
  TOKEN_UNREADABLE: { zh: '无法解密已保存的令牌（加密密钥已更换？），请重新授权', en: 'The stored token cannot be decrypted (was the encryption key changed?). Connect the account again.' },
  OAUTH_STATE_INVALID: { zh: '授权链接无效、已使用或已过期（10 分钟内有效），请重新发起授权', en: 'The authorization link is invalid, used or expired (it lasts 10 minutes). Start again.' },
  OAUTH_DENIED: { zh: '已在 Facebook 取消授权', en: 'The authorization was cancelled on Facebook.' },
  OAUTH_FAILED: { zh: '授权失败：{reason}', en: 'Authorization failed: {reason}' },
  OAUTH_BROWSER_MISMATCH: { zh: '授权须在发起授权的同一浏览器中完成，请在本浏览器中重新点击“授权新个号”', en: 'The authorization must be finished in the browser that started it. Click "Connect a new account" again in this browser.' },
  PLATFORM_NOT_CONFIGURED: { zh: '未配置广告平台连接', en: 'The ad platform connection is not configured.' },
  PLATFORM_ERROR: { zh: '广告平台返回错误：{reason}', en: 'The ad platform answered with an error: {reason}' },
  PLATFORM_RATE_LIMITED: { zh: '广告平台调用过于频繁，请稍后再试', en: 'The ad platform is limiting calls. Try again later.' },
  PLATFORM_UNAVAILABLE: { zh: '广告平台暂时不可用，请稍后再试：{reason}', en: 'The ad platform is unavailable for now. Try again later: {reason}' },
  PLATFORM_PERMISSION: { zh: '令牌缺少所需权限：{reason}', en: 'The token lacks a needed permission: {reason}' },
  JOBS_NOT_RUNNING: { zh: '后台任务服务未启动', en: 'The background job service is not running.' },
  AD_ACCOUNT_NOT_FOUND: { zh: '广告账户不存在', en: 'The ad account does not exist.' },
  PAGE_NOT_FOUND: { zh: '主页不存在', en: 'The page does not exist.' },
  PIXEL_NOT_FOUND: { zh: '像素不存在', en: 'The pixel does not exist.' },
  SITE_NOT_FOUND: { zh: '站点不存在或已删除', en: 'The site does not exist or was deleted.' },
  SITE_DOMAIN_TAKEN: { zh: '域名「{domain}」已被其他站点使用', en: 'The domain "{domain}" is already used by another site.' },
  SITE_PLATFORM_LOCKED: { zh: '站点下已有 {count} 条剧集或商品，不能更改平台', en: 'The site already has {count} dramas or products; its platform cannot change.' },
  SITE_NOT_DRAMA: { zh: '站点「{site}」是电商站点，剧集只能属于短剧（dj）站点', en: 'The site "{site}" is an e-commerce site; dramas belong to drama (dj) sites.' },
  SITE_NOT_SHOP: { zh: '站点「{site}」是短剧站点，商品只能属于电商（ec）站点', en: 'The site "{site}" is a drama site; products belong to e-commerce (ec) sites.' },
  DRAMA_NOT_FOUND: { zh: '剧集不存在或已删除', en: 'The drama does not exist or was deleted.' },
  PRODUCT_NOT_FOUND: { zh: '商品不存在或已删除', en: 'The product does not exist or was deleted.' },
  EXTERNAL_ID_TAKEN: { zh: '该站点已有 ID 为「{external_id}」的条目', en: 'The site already has an entry with the id "{external_id}".' },
  CATALOG_UNREADABLE: { zh: '无法读取文件，请确认是 .csv（UTF-8 或 GBK）或 .xlsx 文件：{reason}', en: 'The file cannot be read; use a .csv (UTF-8 or GBK) or .xlsx file: {reason}' },
  CATALOG_EMPTY: { zh: '文件中没有数据行（第 1 行是表头）', en: 'The file has no data rows (row 1 is the header).' },
  CATALOG_MISSING_COLUMNS: { zh: '表头缺少列：{columns}', en: 'The header lacks the columns: {columns}' },
  CATALOG_DUPLICATE_ROW: { zh: 'ID「{external_id}」与第 {row} 行重复', en: 'The id "{external_id}" repeats row {row}.' },
  CATALOG_NOT_A_NUMBER: { zh: '应为数字，实际是「{value}」', en: 'Must be a number, got "{value}".' },
  CATALOG_UNKNOWN_STATUS: { zh: '未知的测试状态「{value}」，可用：{values}', en: 'Unknown test status "{value}"; use one of: {values}' },
  // Imported spreadsheets (lib/import-file.ts) and exports (lib/xlsx.ts).
  IMPORT_UNREADABLE: { zh: '无法读取文件，请确认是 .csv（UTF-8 或 GBK）或 .xlsx 文件：{reason}', en: 'The file cannot be read; use a .csv (UTF-8 or GBK) or .xlsx file: {reason}' },
  IMPORT_TOO_LARGE: { zh: '文件解压后超过 {max}，请拆分成多个文件分别导入', en: 'The file unpacks to more than {max}; split it into smaller files.' },
  IMPORT_TOO_MANY_ROWS: { zh: '一次最多导入 {max} 行，请拆分文件', en: 'At most {max} rows can be imported at once; split the file.' },
  IMPORT_TOO_MANY_COLUMNS: { zh: '最多读取 {max} 列，单元格 {cell} 超出范围', en: 'At most {max} columns are read; the cell {cell} is beyond them.' },
  IMPORT_CELL_TOO_LONG: { zh: '单元格 {cell} 超过 {max} 个字符', en: 'The cell {cell} has more than {max} characters.' },
  IMPORT_ROW_TOO_LONG: { zh: '第 {row} 行有超过 {max} 个字符的单元格', en: 'Row {row} has a cell of more than {max} characters.' },
  PREFERENCE_LIMIT: { zh: '个人设置已达上限（{max} 项），请先删除不用的列组合', en: 'You have reached the limit of {max} saved settings. Remove ones you no longer use first.' },
  EXPORT_TOO_MANY_ROWS: {
    zh: '符合条件的数据超过 {max} 行，超出一次导出的上限，请缩小筛选范围后再导出',
    en: 'More than {max} rows match, more than one export holds. Narrow the filters and export again.',
  },
  // Orders (API.md "Orders"): the webhook, its event fields, and order imports.
  ORDER_SIGNATURE_MISSING: { zh: '缺少 X-Signature 签名头（t=<秒>,v1=<HMAC-SHA256>）', en: 'The X-Signature header (t=<seconds>,v1=<HMAC-SHA256>) is missing.' },
  ORDER_SIGNATURE_INVALID: { zh: '签名无效：请用站点的 webhook 密钥对「t.原始请求体」计算 HMAC-SHA256', en: 'Invalid signature: sign "<t>.<raw body>" with HMAC-SHA256 keyed by the site\'s webhook secret.' },
  ORDER_SIGNATURE_STALE: { zh: '签名时间戳 t 与服务器时间相差超过 {seconds} 秒', en: 'The signature time t is more than {seconds} seconds from the server clock.' },
  ORDER_BODY_TOO_LARGE: { zh: '请求体超过 {max}', en: 'The request body is over {max}.' },
  ORDER_BODY_INVALID: { zh: '订单事件有误：{detail}', en: 'Invalid order events: {detail}' },
  ORDER_BODY_SHAPE: { zh: '应为一个事件对象，或 {"events": [...]}（1–{max} 个事件）', en: 'Must be one event object, or {"events": [...]} with 1–{max} events.' },
  ORDER_CONFLICT: { zh: '与已收到的订单冲突，本次请求未保存：{detail}', en: 'Conflicts with orders already received; nothing of this request was stored: {detail}' },
  ORDER_CONFLICT_CONTENT: { zh: '订单 {order_no} 的 {event} 已收到且内容不同（以先收到的为准）', en: 'The {event} of order {order_no} was received before with different content (the first one stands).' },
  ORDER_CONFLICT_REFUND_EXCEEDS: { zh: '订单 {order_no} 的退款 {refund} 超过已付金额 {paid}（已退 {refunded}）', en: 'The refund {refund} of order {order_no} exceeds the paid amount {paid} ({refunded} already refunded).' },
  ORDER_CONFLICT_REFUND_UNPAID: { zh: '订单 {order_no} 尚未收到支付事件（order.paid），无法退款', en: 'Order {order_no} has no order.paid event yet, so it cannot be refunded.' },
  ORDER_CONFLICT_CURRENCY: { zh: '订单 {order_no} 的币种是 {order_currency}，退款却是 {currency}', en: 'Order {order_no} is in {order_currency}, the refund in {currency}.' },
  ORDER_FIELD_REQUIRED: { zh: '必填', en: 'Required' },
  ORDER_FIELD_EVENT: { zh: '应为 order.paid 或 order.refunded', en: 'Must be order.paid or order.refunded' },
  ORDER_FIELD_TEXT: { zh: '应为 1–{max} 个字符的字符串', en: 'Must be a string of 1–{max} characters' },
  ORDER_FIELD_AMOUNT: { zh: '应为大于 0 的十进制字符串（主币单位，{currency} 最多 {decimals} 位小数），例如 "4.99"', en: 'Must be a decimal string above 0 in major units ({currency}: at most {decimals} decimals), e.g. "4.99"' },
  ORDER_FIELD_CURRENCY: { zh: '应为 ISO 4217 三位大写币种代码，例如 USD', en: 'Must be an ISO 4217 code such as USD' },
  ORDER_FIELD_TIME: { zh: '应为带时区的 ISO 8601 时间，例如 2026-05-01T08:26:26+08:00', en: 'Must be an ISO 8601 time with an offset, e.g. 2026-05-01T08:26:26+08:00' },
  ORDER_FIELD_COUNTRY: { zh: '应为 ISO 3166-1 两位大写国家代码，例如 US', en: 'Must be an ISO 3166-1 alpha-2 code such as US' },
  ORDER_FIELD_DIGITS: { zh: '应为数字字符串（平台 ID）', en: 'Must be a string of digits (a platform id)' },
  ORDER_FIELD_INTEGER: { zh: '应为 1–{max} 的整数', en: 'Must be an integer from 1 to {max}' },
  ORDER_FIELD_REFUND_ONLY: { zh: '只用于 order.refunded', en: 'Only for order.refunded' },
  ORDER_IMPORT_MISSING_COLUMNS: { zh: '表头缺少列：{columns}（表头使用 webhook 的字段名）', en: 'The header lacks the columns: {columns} (headers are the webhook\'s field names)' },
  ORDER_IMPORT_DUPLICATE_ROW: { zh: '订单 {order_no} 的 {event} 与第 {row} 行重复且内容不同', en: 'The {event} of order {order_no} repeats row {row} with different content.' },
  ORDER_IMPORT_TOO_MANY_ERRORS: { zh: '错误过多，只列出前 {max} 条', en: 'Too many errors; the first {max} are listed.' },
  ORDER_NOT_FOUND: { zh: '订单不存在', en: 'The order does not exist.' },
  ORDER_RANGE_TOO_LONG: { zh: '日期范围最多 {days} 天', en: 'The date range is at most {days} days.' },
  ORDER_RANGE_REVERSED: { zh: '开始日期晚于结束日期', en: 'The start day is after the end day.' },
  // Scheduled jobs and tasks (jobs.ts).
  JOB_NOT_FOUND: { zh: '定时任务「{name}」不存在', en: 'There is no job named "{name}".' },
  CRON_INVALID: { zh: '定时表达式无效：应为 5 段（分 时 日 月 周，UTC），例如 0 3 * * *', en: 'Invalid schedule: use 5 cron fields (minute hour day month weekday, UTC), e.g. 0 3 * * *' },
  TASK_NOT_FOUND: { zh: '任务不存在', en: 'The task does not exist.' },
  TASK_NOT_CANCELLABLE: { zh: '任务已结束，无法取消', en: 'The task has already finished and cannot be cancelled.' },
  // Materials (materials.ts). UPLOAD_* are also the plain-text bodies of refused tus requests.
  MATERIAL_NOT_FOUND: { zh: '素材不存在或已删除', en: 'The material does not exist or was deleted.' },
  MATERIAL_IN_USE: { zh: '以下素材仍被广告使用，不能删除：{list}', en: 'These materials are still used by ads and cannot be deleted: {list}' },
  MATERIAL_DELETE_NOT_OWNER: { zh: '只能删除自己上传的素材（负责人和管理员除外）：{list}', en: 'You can only delete materials you uploaded (leaders and managers excepted): {list}' },
  MATERIAL_READ_ONLY: { zh: '超级管理员只能查看素材', en: 'The super admin can only view materials.' },
  MATERIAL_DRAMA_PLATFORM: { zh: '剧集只能关联短剧（dj）素材', en: 'Only drama (dj) materials can have a drama.' },
  MATERIAL_PRODUCT_PLATFORM: { zh: '商品只能关联电商（ec）素材', en: 'Only e-commerce (ec) materials can have a product.' },
  MATERIAL_EDITOR_NOT_FOUND: { zh: '剪辑师不存在或已删除', en: 'The editor does not exist or was deleted.' },
  PUSH_NOT_FOUND: { zh: '推送记录不存在', en: 'The push does not exist.' },
  PUSH_NO_TOKEN: { zh: '没有可用的个号能访问广告账户「{account}」（需要有效令牌），请先接入或重新授权个号', en: 'No personal account with a valid token reaches the ad account "{account}". Connect or re-authorize one first.' },
  PUSH_MATERIAL_GONE: { zh: '素材已删除', en: 'The material was deleted.' },
  PUSH_VIDEO_FAILED: { zh: '平台处理视频失败：{reason}', en: 'The platform failed to process the video: {reason}' },
  PUSH_TOO_MANY: { zh: '一次最多推送 {max} 个（素材 × 广告账户），本次为 {count} 个', en: 'At most {max} pushes (materials × ad accounts) at once; this is {count}.' },
  PUSH_INTERRUPTED: { zh: '推送任务已取消或中断，可重试', en: 'The push task was cancelled or interrupted; retry it.' },
  PUSH_IMAGE_TOO_LARGE: { zh: '图片大于 {max}，平台不接受', en: 'The image is larger than {max}; the platform does not accept it.' },
  UPLOAD_NOT_FOUND: { zh: '上传不存在、已被拒绝，或不是您发起的', en: 'The upload does not exist, was refused, or is not yours.' },
  UPLOAD_IN_PROGRESS: { zh: '上传尚未完成（已收到 {received} / {total} 字节）', en: 'The upload is not finished ({received} of {total} bytes received).' },
  UPLOAD_EMPTY: { zh: '文件为空（0 字节），不能上传', en: 'The file is empty (0 bytes) and cannot be uploaded.' },
  UPLOAD_TOO_LARGE: { zh: '文件大小 {size} 超过上限 {max}', en: 'The file size {size} is over the limit of {max}.' },
  UPLOAD_LENGTH_REQUIRED: { zh: '创建上传时须给出文件大小（Upload-Length），不支持延后给出', en: 'The file size (Upload-Length) must be given when the upload is created; deferred length is not supported.' },
  UPLOAD_METADATA_MISSING: { zh: '缺少上传信息：{fields}', en: 'Upload metadata missing: {fields}' },
  UPLOAD_METADATA_INVALID: { zh: '上传信息「{field}」无效：{reason}', en: 'Upload metadata "{field}" is invalid: {reason}' },
  UPLOAD_TYPE_REFUSED: { zh: '不支持的文件类型「{type}」，支持：{accepted}', en: 'The file type "{type}" is not supported; supported: {accepted}' },
  UPLOAD_CONTENT_REFUSED: { zh: '文件内容不是支持的视频或图片（实际为 {detected}），已丢弃', en: 'The file content is not a supported video or image (it is {detected}); the upload was discarded.' },
  UPLOAD_CORRUPT: { zh: '文件已损坏或不完整，无法读取（{reason}），已丢弃', en: 'The file is corrupt or incomplete and cannot be read ({reason}); the upload was discarded.' },
  UPLOAD_PROCESSING_FAILED: { zh: '处理上传的文件时出错，已丢弃，请重新上传', en: 'Processing the uploaded file failed; the upload was discarded. Upload it again.' },
  UPLOAD_TOO_MANY_OPEN: {
    zh: '您已有 {count} 个未完成的上传（上限 {max} 个），请先完成或取消一些再上传；未完成的上传 7 天后自动清除',
    en: 'You have {count} unfinished uploads (at most {max}). Finish or cancel some before starting more; unfinished uploads are removed after 7 days.',
  },
  UPLOAD_QUOTA_EXCEEDED: {
    zh: '您未完成的上传共 {reserved}，加上此文件（{size}）将超过上限 {max}，请先完成或取消一些再上传',
    en: 'Your unfinished uploads take {reserved}; with this file ({size}) they would pass the limit of {max}. Finish or cancel some first.',
  },
  UPLOAD_DISK_FULL: {
    zh: '服务器磁盘空间不足（剩余 {free}），暂时不能接收 {size} 的文件，请联系管理员',
    en: 'The server is low on disk space ({free} free) and cannot take a file of {size} now. Contact an administrator.',
  },
  UPLOAD_CHECK_TIMEOUT: { zh: '检查文件超时（超过 {seconds} 秒），已丢弃', en: 'Checking the file took longer than {seconds} s; the upload was discarded.' },
  MATERIAL_NOT_EDITABLE: {
    zh: '素材「{name}」属于其他部门：您上传过相同的文件，可以查看和推送它，但不能修改或删除',
    en: 'The material "{name}" belongs to another department: you uploaded the same file, so you can view and push it, but not change or delete it.',
  },
  SIGNED_URL_INVALID: { zh: '链接无效或已过期，请刷新页面后重试', en: 'The link is invalid or has expired. Reload the page and try again.' },
  // Job progress and results (jobs/runner.ts and the jobs of the features). Stored in both languages
  // in job_runs (message/message_en, error/error_en) and personal_accounts.last_sync_error(_en);
  // the reader's language picks one. Names and platform texts in {params} stay as they are.
  JOB_ATTEMPT_FAILED: { zh: '第 {attempt} 次运行失败，将重试', en: 'Attempt {attempt} failed; it will be retried' },
  JOB_INTERRUPTED: { zh: '运行中断：服务器已关闭', en: 'Interrupted: the server shut down' },
  JOB_TIMED_OUT: { zh: '运行超时（{seconds} 秒）', en: 'Timed out after {seconds} s' },
  JOB_FAILED: { zh: '运行失败', en: 'The run failed' },
  JOB_CONTINUATION_NOT_QUEUED: { zh: '{message}（续跑未能排队：{error}）', en: '{message} (the continuation could not be queued: {error})' },
  JOB_PROCESS_LOST: { zh: '运行中断：运行它的服务进程已停止', en: 'Interrupted: the server process running it stopped' },
  JOB_PUSH_NOTHING: { zh: '没有待推送的素材', en: 'No materials waiting to be pushed' },
  JOB_PUSH_DONE: { zh: '已完成 {ready} 个', en: '{ready} done' },
  JOB_PUSH_DONE_PROCESSING: { zh: '已完成 {ready} 个，平台处理中 {processing} 个', en: '{ready} done, {processing} being processed by the platform' },
  JOB_PUSH_FAILED: { zh: '{done}，失败 {failed} 个：{failures}', en: '{done}; {failed} failed: {failures}' },
  JOB_PUSH_FAILED_MORE: { zh: '{done}，失败 {failed} 个：{failures}…', en: '{done}; {failed} failed: {failures}…' },
  JOB_PUSH_FAILURE: { zh: '{file} → {account}：{reason}', en: '{file} → {account}: {reason}' },
  JOB_SYNC_CONTINUATION_DONE: { zh: '续跑的个号已由之后的同步完成', en: 'The personal accounts of this continuation were synced since' },
  JOB_SYNC_NO_SUCH_ACCOUNTS: { zh: '个号不存在或已断开', en: 'The personal accounts do not exist or were disconnected' },
  JOB_SYNC_ALL_WAITING: { zh: '所有个号都在等待限流后的续跑', en: 'Every personal account is waiting for its continuation after the rate limit' },
  JOB_SYNC_NOTHING: { zh: '没有需要同步的个号', en: 'No personal accounts to sync' },
  JOB_SYNC_SYNCED: { zh: '已同步 {count} 个个号：{ad_accounts} 个广告账户、{pages} 个主页、{pixels} 个像素', en: 'Personal accounts synced: {count} (ad accounts: {ad_accounts}, pages: {pages}, pixels: {pixels})' },
  JOB_SYNC_ACCOUNT_ERROR: { zh: '{name}（{error}）', en: '{name} ({error})' },
  JOB_SYNC_FAILED_LATER: { zh: '失败的个号将在续跑中重试：{list}', en: 'Accounts that failed are retried in the continuation: {list}' },
  JOB_SYNC_FAILED: { zh: '同步失败：{list}', en: 'Sync failed: {list}' },
  JOB_SYNC_PAUSED: {
    zh: '平台限流，同步已暂停：已写入的数据保留，将于 {at} 从断点继续（{count} 个个号）。限流：{detail}',
    en: 'The platform’s rate limit paused the sync: what was written is kept, and it continues where it stopped at {at} (personal accounts: {count}). Limit: {detail}',
  },
  JOB_SYNC_CONTINUATION: { zh: '限流暂停后的续跑：将于 {at} 开始，从断点继续 {count} 个个号', en: 'Continuation after the rate limit: starts at {at} and goes on where it stopped (personal accounts: {count})' },
  JOB_SYNC_ACCOUNT_PAUSED: {
    zh: '同步因平台限流暂停（{detail}），已写入的数据保留，将于 {at} 从断点继续',
    en: 'The sync was paused by the platform’s rate limit ({detail}); what was written is kept, and it continues where it stopped at {at}',
  },
  JOB_SYNC_RESUMING: { zh: '从断点继续', en: 'Continuing where it stopped' },
  JOB_TOKENS_CHECKED: { zh: '有效 {valid}，即将过期 {expiring}，失效 {invalid}', en: 'Valid {valid}, expiring {expiring}, invalid {invalid}' },
  JOB_TOKENS_FAILED: { zh: '令牌检查失败：{error}', en: 'Token check failed: {error}' },
  // Ad data (issue 7).
  JOB_AD_SYNC_DONE: { zh: '{name}：{campaigns} 个广告系列、{adsets} 个广告组、{ads} 个广告已更新，{rows} 行日数据', en: '{name}: campaigns {campaigns}, ad sets {adsets}, ads {ads} updated; daily rows {rows}' },
  JOB_AD_SYNC_PAUSED: { zh: '{name}：平台限流，同步已暂停（{detail}），已写入的数据保留，将于 {at} 从断点继续', en: '{name}: the platform’s rate limit paused the sync ({detail}); what was written is kept, and it continues at {at}' },
  JOB_AD_SYNC_CONTINUATION: { zh: '{name}：限流后的续跑，将于 {at} 开始', en: '{name}: continuation after the rate limit, starts at {at}' },
  JOB_AD_SYNC_NO_TOKEN: { zh: '{name}：没有可用的个号令牌，无法同步。{detail}', en: '{name}: no personal account with a working token reaches it; nothing was synced. {detail}' },
  JOB_AD_SYNC_DEAD_TOKEN: { zh: '个号「{name}」的令牌已失效，已标记：{reason}', en: 'The token of personal account "{name}" stopped working and was marked invalid: {reason}' },
  JOB_AD_SYNC_QUEUED: { zh: '已为 {count} 个广告账户排队同步', en: 'Sync queued for {count} ad accounts' },
  JOB_AD_SYNC_NONE: { zh: '没有需要同步的广告账户', en: 'No ad accounts are due for a sync' },
  JOB_AD_PRUNED: { zh: '已删除 {count} 行超过 {days} 天的小时数据', en: 'Removed {count} hourly rows older than {days} days' },
  JOB_AD_COPY_WAITING: { zh: '等待素材在广告账户「{account}」就绪：{files}', en: 'Waiting for materials to be ready on "{account}": {files}' },
  JOB_AD_COPY_CONTINUATION: { zh: '素材仍在处理，将于 {at} 继续复制', en: 'Materials are still being processed; the copy goes on at {at}' },
  JOB_AD_COPY_DONE: { zh: '已复制到「{account}」：成功 {ok} 个，失败 {failed} 个', en: 'Copied to "{account}": {ok} created, {failed} failed' },
  JOB_AD_COPY_CREATING: { zh: '正在创建 {name}', en: 'Creating {name}' },
  JOB_AD_RECONCILED: { zh: '已核对 {count} 条未完成的操作：成功 {ok}，失败 {failed}', en: 'Checked {count} unfinished operations: ok {ok}, failed {failed}' },
  JOB_ROLLUPS_REFRESHED: { zh: '已更新 {pairs} 个（日期 × 广告账户）的维度汇总', en: 'Rebuilt the dimension rollups of {pairs} (day × ad account) pairs' },
  JOB_COHORTS_REFRESHED: { zh: '已重算 {pairs} 个（广告 × 日期）的订单与同期群数据', en: 'Recomputed the order and cohort figures of {pairs} (ad × day) pairs' },
  AD_OBJECT_NOT_FOUND: { zh: '广告对象不存在或已不在你的数据范围内', en: 'The ad object does not exist or is outside your scope.' },
  AD_OP_SUPER_ADMIN_ONLY_STATUS: { zh: '超级管理员只能开启或暂停', en: 'The super admin may only switch objects on or off.' },
  AD_OP_NO_BUDGET_HERE: { zh: '「{name}」的预算在{holder}上，请在那里修改', en: 'The budget of "{name}" is held by its {holder}; change it there.' },
  AD_OP_BUDGET_LIMIT: { zh: '广告组「{name}」本小时已修改预算 {count} 次（平台限每小时 4 次），{at} 后可再改', en: 'The budget of ad set "{name}" was changed {count} times this hour (the platform allows 4); it may change again after {at}.' },
  AD_OP_BUDGET_LAST: { zh: '广告组「{name}」本小时已修改预算 {count} 次，这是本小时最后一次（平台限每小时 4 次），之后要到 {at} 后才能再改', en: 'The budget of ad set "{name}" was changed {count} times this hour: this is the last change the platform allows (4 an hour); the next may follow after {at}.' },
  AD_OP_CROSS_ACCOUNT: { zh: '只能复制到同一广告账户', en: 'Copies stay within the same ad account.' },
  AD_OP_NO_TOKEN: { zh: '没有可用的个号令牌可以操作该广告账户', en: 'No personal account with a working token reaches this ad account.' },
  AD_COPY_TARGET_SCOPE: { zh: '广告账户「{account}」不在你的数据范围内，不能复制到那里', en: 'The ad account "{account}" is outside your data scope; nothing can be copied there.' },
  AD_COPY_NO_TOKEN: { zh: '没有有效令牌的个号能访问广告账户「{account}」，请先接入或重新授权个号', en: 'No personal account with a valid token reaches the ad account "{account}". Connect or re-authorize one first.' },
  AD_COPY_PARENT_REQUIRED: { zh: '复制到另一个广告账户时，请选择「{account}」中的{level}', en: 'To copy into another ad account, choose the {level} in "{account}" to copy into.' },
  AD_COPY_PARENT_ACCOUNT: { zh: '所选{level}不在广告账户「{account}」中', en: 'The chosen {level} is not in the ad account "{account}".' },
  AD_COPY_PIXEL_NOT_SHARED: {
    zh: '像素 {pixel} 未共享给广告账户「{account}」：请在商务管理平台共享该像素，或选择该账户可用的像素',
    en: 'The pixel {pixel} is not shared with the ad account "{account}": share it in Business Manager, or choose one of that account’s pixels.',
  },
  AD_COPY_PAGE_NOT_ACCESSIBLE: {
    zh: '能访问广告账户「{account}」的个号无法使用主页 {page}，广告创意不能在那里创建',
    en: 'The personal accounts reaching "{account}" cannot use the page {page}, so the ad’s creative cannot be created there.',
  },
  AD_COPY_MATERIAL_MISSING: {
    zh: '广告「{name}」的{kind}不在素材库中，无法推送到广告账户「{account}」：请先把它上传到素材库',
    en: 'The {kind} of the ad "{name}" is not in the materials library, so it cannot be pushed to "{account}": upload it to the library first.',
  },
  AD_COPY_PUSH_FAILED: { zh: '素材「{file}」推送到广告账户「{account}」失败：{reason}', en: 'Pushing "{file}" to the ad account "{account}" failed: {reason}' },
  AD_COPY_PUSH_NOT_READY: { zh: '素材「{file}」在广告账户「{account}」仍未处理完成，请稍后再复制', en: '"{file}" is still being processed on the ad account "{account}"; copy again later.' },
  AD_COPY_NO_RATE: { zh: '没有 {currency} 的汇率，无法换算预算：请先在汇率中添加', en: 'There is no exchange rate for {currency}, so the budget cannot be converted: add one under exchange rates.' },
  AD_COPY_PARENT_FAILED: { zh: '未创建：其上级{level}「{name}」未能创建', en: 'Not created: its {level} "{name}" could not be created.' },
  AD_COPY_NEEDS_BUDGET: {
    zh: '广告系列「{campaign}」不使用系列预算，广告组「{name}」需要自己的预算：请填写日预算',
    en: 'The campaign "{campaign}" does not hold a budget, so the ad set "{name}" needs its own: enter a daily budget.',
  },
  AD_COPY_NO_CREATIVE: { zh: '广告「{name}」没有可读取的创意', en: 'The ad "{name}" has no creative to read.' },
  AD_COPY_EXISTS: {
    zh: '{level}「{name}」已在目标位置，沿用它而不重复创建（要再复制一份，请换个名称或后缀）',
    en: 'A {level} named "{name}" is already there: it is reused, not created twice (give another name or suffix to make another copy).',
  },
  AD_COPY_CONVERTED: {
    zh: '预算从 {from} 换算为 {to}：1 USD = {fromRate} {from} = {toRate} {to}（{day} 的汇率），{amounts}',
    en: 'Budgets converted from {from} to {to}: 1 USD = {fromRate} {from} = {toRate} {to} (rates of {day}); {amounts}',
  },
  AD_COPY_BUDGET_DROPPED: { zh: '目标广告系列「{campaign}」使用系列预算，广告组不带预算', en: 'The target campaign "{campaign}" holds the budget, so the ad sets are created without one.' },
  AD_COPY_WILL_PUSH: { zh: '先把 {count} 个素材推送到广告账户「{account}」并等待平台处理完成：{files}', en: 'First {count} materials are pushed to "{account}" and processed by the platform: {files}' },
  AD_COPY_QUEUED: { zh: '复制已作为任务排队，结果写入系统日志', en: 'The copy is queued as a task; its results go to the operation log.' },
  AD_OP_CRASHED: { zh: '操作结果未知（服务中断），核对平台后确认未生效', en: 'The outcome was unknown (the service stopped); checked against the platform: it did not take effect.' },
  FX_RATE_INVALID: { zh: '汇率必须大于 0', en: 'A rate must be greater than 0.' },
  // Hosting rules and notifications (issue 10).
  RULE_NOT_FOUND: { zh: '规则不存在或不在你的数据范围内', en: 'The rule does not exist or is outside your scope.' },
  RULE_OWNER_NOT_ALLOWED: { zh: '只能把规则交给你数据范围内、有广告托管权限的人', en: 'A rule can only be owned by someone in your scope who has access to hosting.' },
  RULE_OWNER_INACTIVE: { zh: '规则负责人「{name}」已停用或删除，规则无法执行', en: 'The rule’s owner "{name}" is disabled or deleted; the rule cannot run.' },
  RULE_OWNER_NO_ACCESS: { zh: '规则负责人「{name}」已没有广告托管权限，规则无法执行', en: 'The rule’s owner "{name}" no longer has access to hosting; the rule cannot run.' },
  RULE_SCOPE_OUTSIDE: { zh: '范围中有不在负责人数据范围内的{what}', en: 'The scope lists {what} outside the owner’s scope.' },
  RULE_CHANNEL_NOT_FOUND: { zh: '通知渠道不存在或不在你的数据范围内', en: 'A notification channel does not exist or is outside your scope.' },
  RULE_PAUSED_FAILING: { zh: '规则连续 {count} 次执行失败，已自动关闭：{error}', en: 'The rule failed {count} times in a row and was switched off: {error}' },
  RULE_ALL_FAILED: { zh: '{count} 个操作全部失败，例如：{error}', en: 'All {count} actions failed, e.g. {error}' },
  RULE_INTERRUPTED: { zh: '执行中断，结果未知（请在系统日志中核对）', en: 'Interrupted; the outcome is unknown (check the operation log).' },
  RULE_SKIP_COOLDOWN: { zh: '冷却中：{minutes} 分钟内本规则已处理过', en: 'Cooling down: this rule acted on it within {minutes} minutes.' },
  RULE_SKIP_CAP: { zh: '已达单次执行上限（{max} 个）', en: 'The cap of {max} actions per run was reached.' },
  RULE_SKIP_LIMIT: { zh: '该广告组本小时已修改预算 {count} 次（平台限每小时 4 次）', en: 'The ad set’s budget changed {count} times this hour (the platform allows 4).' },
  RULE_SKIP_BUDGET_HOLDER: { zh: '预算在{holder}上，不在此层级', en: 'The budget is held by its {holder}, not at this level.' },
  RULE_SKIP_NO_DAILY_BUDGET: { zh: '没有日预算（规则不修改总预算）', en: 'No daily budget (rules do not change lifetime budgets).' },
  RULE_SKIP_BUDGET_SAME: { zh: '预算已在上下限处，无需修改', en: 'The budget is already at its limit; nothing to change.' },
  RULE_SKIP_STOPPED: { zh: '今天已止损关闭过，明天再判断', en: 'Already stopped today; judged again tomorrow.' },
  RULE_SKIP_NOT_HOSTED: { zh: '广告账户已取消托管或已不在负责人范围内', en: 'The ad account is no longer hosted or no longer in the owner’s scope.' },
  RULE_REVIVE_TOUCHED: { zh: '止损后状态已被他人修改或对象已删除，不再自动开启', en: 'Someone changed it after the stop-loss (or it was deleted); it is not switched on again.' },
  RULE_REVIVE_CONDITIONS: { zh: '复活条件不满足，保持关闭', en: 'The revive conditions do not hold; it stays off.' },
  CHANNEL_NOT_FOUND: { zh: '通知渠道不存在或不在你的数据范围内', en: 'The notification channel does not exist or is outside your scope.' },
  CHANNEL_SYSTEM_ALERTS_MANAGER: { zh: '只有管理员可以让渠道接收系统告警', en: 'Only managers can send system alerts to a channel.' },
  CHANNEL_HOST_NOT_ALLOWED: { zh: 'Webhook 地址的域名 {host} 不在允许列表中（{allowed}）', en: 'The webhook host {host} is not allowed ({allowed}).' },
  CHANNEL_URL_TYPE: { zh: '该地址不是{type}的 Webhook 地址', en: 'This is not a {type} webhook URL.' },
  CHANNEL_DISABLED: { zh: '渠道已停用', en: 'The channel is disabled.' },
  JOB_RULES_DONE: { zh: '{rules} 条规则已执行：操作 {acted}，失败 {failed}，复活 {revived}', en: '{rules} rules evaluated: acted {acted}, failed {failed}, revived {revived}' },
  JOB_RULES_NONE: { zh: '没有到期的规则或待复活的对象', en: 'No rule is due and nothing waits to be revived' },
  JOB_NOTIFY_DONE: { zh: '已发送 {sent} 条通知，失败 {failed}，等待重试 {waiting}', en: 'Sent {sent} notifications, failed {failed}, waiting to retry {waiting}' },
  JOB_ALERTS_DONE: { zh: '已生成 {count} 条系统告警', en: '{count} system alerts raised' },
  // Leadership and wider scopes (issue 11): only managers grant them; nobody manages a wider scope than their own.
  CANNOT_GRANT_LEADER: { zh: '只有管理员可以设置负责人身份', en: 'Only managers can make someone a leader.' },
  CANNOT_APPOINT_LEADER: { zh: '只有管理员可以任命部门负责人（任命会赋予其负责人身份）', en: 'Only managers can appoint a department leader (the appointment makes them a leader).' },
  CANNOT_MANAGE_WIDER_SCOPE: { zh: '该用户的数据范围比您的更大（负责人、管理员或可查看全公司授权资产），只有管理员可以管理', en: 'This user sees more than you do (a leader, a manager, or company-wide authorization assets); only managers can manage them.' },
  CANNOT_SET_ASSET_SCOPE: { zh: '只有管理员可以让角色查看全公司的授权资产', en: 'Only managers can give a role the company’s authorization assets.' },
  CANNOT_GRANT_ASSET_SCOPE: { zh: '不能授予查看全公司授权资产的角色：{roles}', en: 'You cannot grant roles that see the company’s authorization assets: {roles}' },
  ROLE_HELD_OUTSIDE_SCOPE: { zh: '角色「{name}」有 {count} 名成员不在您管理的范围内，只有管理员可以修改或删除它', en: 'The role "{name}" has {count} members outside the people you manage; only managers can change or delete it.' },
  // Publishing (issue 8): checks of the wizard's draft (preview / submit), schemes, items and their job.
  PUB_NEED_DRAMA: { zh: '请选择要发布的短剧', en: 'Choose the drama to publish.' },
  PUB_NEED_PRODUCT: { zh: '请选择要发布的商品', en: 'Choose the product to publish.' },
  PUB_DRAMA_NOT_FOUND: { zh: '短剧不存在或已删除', en: 'The drama does not exist or was deleted.' },
  PUB_PRODUCT_NOT_FOUND: { zh: '商品不存在或已删除', en: 'The product does not exist or was deleted.' },
  PUB_NO_MEDIA: { zh: '请至少选择一个视频或图片', en: 'Choose at least one video or image.' },
  PUB_NO_TEXTS: { zh: '请至少填写一条正文', en: 'Enter at least one primary text.' },
  PUB_NO_POSTS: { zh: '请至少选择一个主页帖子', en: 'Choose at least one page post.' },
  PUB_MATERIAL_NOT_FOUND: { zh: '素材 {id} 不存在、已删除或不在你的数据范围内', en: 'Material {id} does not exist, was deleted or is outside your scope.' },
  PUB_MATERIAL_KIND: { zh: '素材「{name}」不是{kind}', en: 'The material "{name}" is not {kind}.' },
  PUB_MATERIAL_PLATFORM: { zh: '素材「{name}」属于另一个平台（短剧/电商）', en: 'The material "{name}" belongs to the other platform (drama / e-commerce).' },
  PUB_MATERIAL_OTHER_TITLE: { zh: '素材「{name}」关联的是另一部短剧或另一个商品', en: 'The material "{name}" is preset to another drama or product.' },
  PUB_VIDEO_NO_COVER: { zh: '视频「{name}」没有封面：请选择一张封面图片', en: 'The video "{name}" has no cover: choose a cover image.' },
  PUB_DYNAMIC_LIMIT: { zh: '动态创意最多 {videos} 个视频、{videos} 张图片，正文、标题、描述各 {texts} 条', en: 'A dynamic creative holds at most {videos} videos, {videos} images and {texts} each of primary texts, headlines and descriptions.' },
  PUB_ACCOUNT_DUPLICATE: { zh: '广告账户「{name}」选了两次', en: 'The ad account "{name}" is chosen twice.' },
  PUB_ACCOUNT_INACTIVE: { zh: '广告账户「{name}」当前状态（{status}）不能创建广告', en: 'The ad account "{name}" cannot create ads in its current status ({status}).' },
  PUB_ACCOUNT_NO_TOKEN: { zh: '没有令牌有效的个号能访问广告账户「{name}」，请先重新授权个号', en: 'No personal account with a valid token reaches the ad account "{name}"; re-authorize one first.' },
  PUB_ACCOUNT_OTHER_PLATFORM: { zh: '广告账户「{name}」标记为另一平台', en: 'The ad account "{name}" is marked for the other platform.' },
  PUB_PAGE_NOT_USABLE: { zh: '所选主页不能用于广告账户「{name}」（请在主页关联中关联）', en: 'The chosen page cannot be used with the ad account "{name}" (associate it under Pages).' },
  PUB_PIXEL_REQUIRED: { zh: '广告账户「{name}」需要选择像素：优化目标 {goal} 需要像素和转化事件', en: 'Choose a pixel for the ad account "{name}": the optimization goal {goal} needs a pixel and a conversion event.' },
  PUB_PIXEL_NOT_SHARED: { zh: '所选像素没有共享给广告账户「{name}」', en: 'The chosen pixel is not shared with the ad account "{name}".' },
  PUB_EVENT_REQUIRED: { zh: '优化目标 {goal} 需要选择转化事件', en: 'The optimization goal {goal} needs a conversion event.' },
  PUB_LINK_INVALID: { zh: '广告账户「{name}」的落地链接不是有效的 http(s) 链接', en: 'The landing link of the ad account "{name}" is not a valid http(s) link.' },
  PUB_URL_TAGS_INVALID: { zh: 'URL 参数须为 key=value&key=value 形式，不能有空格', en: 'URL parameters must read key=value&key=value, without spaces.' },
  PUB_GOAL_OBJECTIVE: { zh: '优化目标 {goal} 不适用于营销目标 {objective}', en: 'The optimization goal {goal} is not available for the objective {objective}.' },
  PUB_BID_REQUIRED: { zh: '出价策略 {strategy} 需要填写出价金额', en: 'The bid strategy {strategy} needs a bid amount.' },
  PUB_ROAS_REQUIRED: { zh: '最低 ROAS 出价需要填写 ROAS 下限', en: 'Minimum-ROAS bidding needs its ROAS floor.' },
  PUB_ROAS_NEEDS_VALUE: { zh: '最低 ROAS 出价的优化目标须为价值（VALUE）', en: 'Minimum-ROAS bidding needs the optimization goal VALUE.' },
  PUB_BID_NOT_USED: { zh: '出价策略 {strategy} 不使用出价金额，已忽略', en: 'The bid strategy {strategy} takes no bid amount; it is ignored.' },
  PUB_BUDGET_TOO_LOW: { zh: '「{name}」的预算 {amount} 低于平台最低 {min}', en: 'The budget of "{name}", {amount}, is below the platform’s minimum of {min}.' },
  PUB_BUDGET_BELOW_BID: { zh: '「{name}」的预算 {amount} 须至少为出价的 5 倍（{min}）', en: 'The budget of "{name}", {amount}, must be at least 5 times the bid ({min}).' },
  PUB_NO_RATE: { zh: '没有 {currency} 对美元的汇率，无法换算', en: 'There is no {currency} to USD rate to convert with.' },
  PUB_LIFETIME_NEEDS_END: { zh: '总预算需要填写结束时间', en: 'A lifetime budget needs an end time.' },
  PUB_END_BEFORE_START: { zh: '结束时间须晚于开始时间', en: 'The end time must be after the start time.' },
  PUB_START_INVALID: { zh: '开始时间或时区无效', en: 'The start time or its time zone is not valid.' },
  PUB_START_PAST: { zh: '开始时间已过，开启后立即投放', en: 'The start time has passed; delivery starts as soon as it is switched on.' },
  PUB_EU_DSA: { zh: '定向欧盟国家（{countries}）需要填写受益人和付款人', en: 'Targeting EU countries ({countries}) needs the beneficiary and the payer.' },
  PUB_AGES: { zh: '最小年龄不能大于最大年龄', en: 'The minimum age cannot be above the maximum age.' },
  PUB_PLACEMENTS: { zh: '选择了 {platform} 的版位，但没有选择 {platform} 平台', en: 'Positions of {platform} are chosen but {platform} itself is not.' },
  PUB_ADS_PER_ADSET: { zh: '每个广告组最多 {max} 个广告，当前为 {count} 个', en: 'An ad set holds at most {max} ads; this one would have {count}.' },
  PUB_TOO_MANY_ADS: { zh: '一个方案最多创建 {max} 个广告，当前为 {count} 个', en: 'One scheme creates at most {max} ads; this one would create {count}.' },
  PUB_ADSET_EMPTY: { zh: '{count} 个广告组分不到广告（素材组合只有 {ads} 个广告）', en: '{count} ad sets would get no ads (the combination makes only {ads} ads).' },
  PUB_ADS_LEFT_OUT: { zh: '{count} 个素材组合没有放入任何广告组', en: '{count} combinations are left out of every ad set.' },
  PUB_NAME_TOKEN: { zh: '命名模板含未知变量 {token}', en: 'The naming template has an unknown token {token}.' },
  PUB_NAME_TOO_LONG: { zh: '名称超过 {max} 个字符：{name}', en: 'A name is longer than {max} characters: {name}' },
  PUB_NAME_SUFFIXED: { zh: '{count} 个名称在同一上级下重复，已加序号区分', en: '{count} names repeat under one parent; a number was added to tell them apart.' },
  PUB_LAUNCH_PAST: { zh: '启动时间已过', en: 'The start time has passed.' },
  PUB_POST_NOT_FOUND: { zh: '帖子 {post} 的主页不存在', en: 'The page of post {post} does not exist.' },
  PUB_PLATFORM_CHECK: { zh: '平台校验未通过（{name}）：{reason}', en: 'The platform refused it ({name}): {reason}' },
  PUB_PLATFORM_UNCHECKED: { zh: '未能在平台校验广告账户「{name}」：{reason}', en: 'Could not check with the platform for the ad account "{name}": {reason}' },
  PUB_ADVANTAGE_AGES: { zh: '开启进阶赋能型受众时，年龄范围只作为建议', en: 'With Advantage+ audience the age range is only a suggestion.' },
  PUB_CHECKS_FAILED: { zh: '发布前检查有 {count} 个错误：{first}', en: 'The checks before publishing found {count} errors: {first}' },
  SCHEME_NOT_FOUND: { zh: '方案不存在或不在你的数据范围内', en: 'The scheme does not exist or is outside your scope.' },
  SCHEME_NOTHING_TO_RETRY: { zh: '方案没有失败的项目', en: 'The scheme has no failed items.' },
  SCHEME_BUSY: { zh: '方案正在运行，请等它停下后再重试', en: 'The scheme is running; retry once it has stopped.' },
  SCHEME_FINISHED: { zh: '方案已结束，无需取消', en: 'The scheme has finished; there is nothing to cancel.' },
  TEMPLATE_NOT_FOUND: { zh: '模板不存在或已删除', en: 'The template does not exist or was deleted.' },
  TEMPLATE_NOT_EDITABLE: { zh: '只能修改或删除自己的模板', en: 'You can change or delete only your own templates.' },
  LINK_NO_SITE: { zh: '该短剧或商品所属的站点不存在', en: 'The site of this drama or product does not exist.' },
  PUB_ITEM_PARENT_FAILED: { zh: '上级对象没有创建成功', en: 'Its parent was not created.' },
  PUB_ITEM_PUSH_FAILED: { zh: '素材「{name}」推送到广告账户失败：{reason}', en: 'Pushing the material "{name}" to the ad account failed: {reason}' },
  PUB_ITEM_VIDEO_FAILED: { zh: '视频「{name}」处理失败：{reason}', en: 'The video "{name}" failed processing: {reason}' },
  PUB_ITEM_NO_TOKEN: { zh: '没有令牌有效的个号能访问该广告账户', en: 'No personal account with a valid token reaches the ad account.' },
  PUB_ITEM_UNKNOWN_OUTCOME: { zh: '平台没有回复，已在平台核对：未创建', en: 'The platform gave no answer; checked on the platform: not created.' },
  JOB_PUBLISH_DONE: { zh: '方案「{name}」完成：已创建 {created} 个对象', en: 'Scheme "{name}" done: {created} objects created' },
  JOB_PUBLISH_PARTIAL: { zh: '方案「{name}」部分失败：成功 {created} 个，失败 {failed} 个。{first}', en: 'Scheme "{name}" partly failed: {created} created, {failed} failed. {first}' },
  JOB_PUBLISH_FAILED: { zh: '方案「{name}」失败：{failed} 个对象没有创建。{first}', en: 'Scheme "{name}" failed: {failed} objects were not created. {first}' },
  JOB_PUBLISH_CANCELLED: { zh: '方案「{name}」已取消：已创建 {created} 个，取消 {cancelled} 个', en: 'Scheme "{name}" cancelled: {created} created, {cancelled} cancelled' },
  JOB_PUBLISH_WAIT_RATE: { zh: '平台限流，{at} 继续（已创建的保留）', en: 'The platform is limiting calls; it goes on at {at} (what was created stays)' },
  JOB_PUBLISH_WAIT_MEDIA: { zh: '等待素材：推送中 {pushing} 个，平台处理中 {processing} 个', en: 'Waiting for materials: {pushing} being pushed, {processing} being processed by the platform' },
  JOB_PUBLISH_TURN: { zh: '让其他方案先运行，稍后继续', en: 'Letting other schemes run; it goes on shortly' },
  JOB_PUBLISH_NOTHING: { zh: '方案没有待创建的项目', en: 'The scheme has nothing left to create' },
  JOB_PUBLISH_START_DONE: { zh: '已开启 {count} 个广告系列', en: '{count} campaigns switched on' },
  JOB_PUBLISH_START_FAILED: { zh: '开启失败 {failed} 个（成功 {count} 个）：{first}', en: '{failed} could not be switched on ({count} did): {first}' },
  JOB_START_OFF_DONE: { zh: '已关闭 {count} 个广告系列', en: '{count} campaigns switched off' },
  JOB_START_OFF_FAILED: { zh: '关闭失败 {failed} 个（成功 {count} 个）：{first}', en: '{failed} could not be switched off ({count} did): {first}' },
  START_CREATOR_INACTIVE: { zh: '任务创建人「{name}」已停用或删除，未开启', en: 'The task’s creator "{name}" is disabled or deleted; not switched on.' },
  START_CREATOR_NO_ACCESS: { zh: '任务创建人「{name}」已没有启动权限，未开启', en: 'The task’s creator "{name}" may no longer start objects; not switched on.' },
  START_OUT_OF_SCOPE: { zh: '该广告系列已不在任务创建人「{name}」的数据范围内，未开启', en: 'The campaign is no longer in the scope of the task’s creator "{name}"; not switched on.' },
  START_TIME_PAST: { zh: '开启时间已过，请选择将来的时间或立即开启', en: 'The start time has passed: choose a later time or start now.' },
  START_OFF_BEFORE_ON: { zh: '关闭时间须晚于开启时间和当前时间', en: 'The switch-off time must come after the start time and after now.' },
  START_NOT_PENDING: { zh: '只能取消尚未执行的任务', en: 'Only a task that has not run yet can be cancelled.' },
  START_TASK_NOT_FOUND: { zh: '启动任务不存在或不在你的数据范围内', en: 'The start task does not exist or is outside your scope.' },
  JOB_POSTS_DONE: { zh: '帖子创建完成：成功 {ok} 个，失败 {failed} 个', en: 'Posts created: {ok} done, {failed} failed' },
  POST_PAGE_NO_TOKEN: { zh: '没有可用的个号主页令牌可以在该主页发帖', en: 'No personal account holds a working token of this page.' },
  POST_PAGE_NOT_ALLOWED: { zh: '主页不存在或你无权使用', en: 'The page does not exist or you may not use it.' },
  POST_MATERIAL_NOT_FOUND: { zh: '素材不存在或不在你的数据范围内', en: 'The material does not exist or is outside your scope.' },
  POST_SCHEDULE_WINDOW: { zh: '定时发布时间须在 {min} 分钟后到 {max} 天内', en: 'A scheduled post must go live between {min} minutes and {max} days from now.' },
  POST_BATCH_NOT_FOUND: { zh: '发帖批次不存在或不在你的数据范围内', en: 'The batch of posts does not exist or is outside your scope.' },
  POST_NOTHING_TO_RETRY: { zh: '该批次没有失败的帖子', en: 'The batch has no failed posts.' },
  POST_BATCH_BUSY: { zh: '该批次正在发帖，请等它结束后再重试', en: 'The batch is still posting; retry once it has finished.' },
  POST_MATERIAL_KIND: { zh: '只能用视频或图片素材发帖', en: 'Only video and image materials can be posted.' },
  POST_NOT_FOUND: { zh: '帖子不存在或不在你的数据范围内', en: 'The post does not exist or is outside your scope.' },
  POST_NOT_SCHEDULED: { zh: '只能改期或取消在本系统创建、尚未发布的定时帖子', en: 'Only scheduled posts made here that have not gone live yet can be rescheduled or cancelled.' },
  POST_ALREADY_LIVE: { zh: '帖子已在主页上发布，未取消', en: 'The post has already gone live on the page; it was not cancelled.' },
  POST_GONE: { zh: '平台上找不到该帖子：已被删除，或主页令牌已无法访问它', en: 'The platform cannot find the post: it was deleted, or the page token can no longer reach it.' },
} as const satisfies Record<string, Record<Lang, string>>;

export type ErrorKey = keyof typeof errorMessages;

/** A text in both languages (job results, stored errors): the reader's language picks one. */
export type Bilingual = { zh: string; en: string };

export function isBilingual(value: unknown): value is Bilingual {
  return typeof value === 'object' && value !== null && typeof (value as Bilingual).zh === 'string' && typeof (value as Bilingual).en === 'string';
}

/** A plain string is the same text in both languages (a file name, a platform's own words). */
export function bilingual(text: string | Bilingual): Bilingual {
  return typeof text === 'string' ? { zh: text, en: text } : text;
}

/** The text in one language. */
export function textIn(text: string | Bilingual, lang: Lang): string {
  return typeof text === 'string' ? text : text[lang];
}

/** A text composed per language, e.g. `perLang((l) => `${a[l]} · ${b}`)`. */
export function perLang(compose: (lang: Lang) => string): Bilingual {
  return { zh: compose('zh'), en: compose('en') };
}

/** A parameter given in both languages is put in the message's own language. */
export function formatMessage(key: ErrorKey, lang: Lang, params: Record<string, unknown> = {}): string {
  const template: string = errorMessages[key][lang];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in params)) return `{${name}}`;
    const value = params[name];
    return isBilingual(value) ? value[lang] : String(value);
  });
}

/** A message in both languages; parameters may themselves be Bilingual. */
export function both(key: ErrorKey, params: Record<string, unknown> = {}): Bilingual {
  return perLang((lang) => formatMessage(key, lang, params));
}

const JOIN_SEPARATOR: Record<Lang, string> = { zh: '；', en: '; ' };

/** Joins parts of a composed text ('；' in Chinese, '; ' in English), leaving out empty ones. */
export function joinBoth(parts: readonly (string | Bilingual | null | undefined)[]): Bilingual {
  return perLang((lang) =>
    parts
      .map((p) => (p == null ? '' : textIn(p, lang)))
      .filter(Boolean)
      .join(JOIN_SEPARATOR[lang]),
  );
}

/** Picks the language from an Accept-Language header: zh-CN unless English comes first. */
export function langFromHeader(header: string | undefined): Lang {
  if (!header) return 'zh';
  const first = header.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : 'zh';
}

export interface IssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  minimum?: unknown;
  maximum?: unknown;
  expected?: unknown;
  origin?: unknown;
  format?: unknown;
  pattern?: unknown;
  values?: unknown;
  keys?: unknown;
}

/** Messages of the hosting rules' and channels' own checks (hosting-rules.ts), whatever the issue code. */
const RULE_ISSUES: Record<string, Record<Lang, string>> = {
  rule_hourly_metric: { zh: '该指标没有小时数据，不能按“最近 N 小时”计算（可用：花费、展示、点击、CTR、CPM、CPC）', en: 'This metric has no hourly figures; use it over days (hourly: spend, impressions, clicks, CTR, CPM, CPC)' },
  rule_scope_empty: { zh: '请选择范围（平台、投手、部门或广告账户）', en: 'Choose what the scope covers (platform, optimizers, departments or ad accounts)' },
  rule_budget_level: { zh: '预算操作只能用于广告系列或广告组', en: 'Budget actions apply to campaigns or ad sets only' },
  rule_stop_loss_pause: { zh: '止损只能与“关闭”操作一起使用', en: 'Stop-loss goes with the pause action only' },
  rule_dry_run_one: { zh: '请给出规则 id 或未保存的规则之一', en: 'Give either a rule id or an unsaved rule' },
  rule_min_max: { zh: '最高预算不能低于最低预算', en: 'The maximum budget must not be below the minimum' },
  rule_time: { zh: '时间应为 HH:MM，分钟为 5 的倍数', en: 'A time is HH:MM with minutes in steps of 5' },
  rule_time_twice: { zh: '同一时间只能出现一次', en: 'Each time once' },
  rule_timezone: { zh: '应为 IANA 时区，例如 Asia/Shanghai', en: 'Must be an IANA time zone such as Asia/Shanghai' },
  channel_email: { zh: '邮件渠道需要 SMTP 设置和收件人', en: 'An e-mail channel needs SMTP settings and recipients' },
  channel_webhook: { zh: '请填写 Webhook 地址', en: 'Enter the webhook URL' },
  email: { zh: '应为邮箱地址', en: 'Must be an e-mail address' },
};

/** Turns a zod issue into a message a user can act on, in the given language. */
export function issueMessage(issue: IssueLike, lang: Lang): string {
  const zh = lang === 'zh';
  const str = issue.origin === 'string';
  const arr = issue.origin === 'array';
  // text.ts: a character no field takes.
  if (issue.message === 'text_chars') return zh ? '不能包含 NUL 控制字符或无效的 Unicode 字符' : 'Must not contain NUL or invalid Unicode characters';
  const ruleText = RULE_ISSUES[issue.message];
  if (ruleText) return ruleText[lang];
  switch (issue.code) {
    case 'invalid_type':
      if (issue.message.includes('received undefined')) return zh ? '必填' : 'Required';
      return zh ? `类型错误，应为 ${String(issue.expected)}` : `Wrong type, expected ${String(issue.expected)}`;
    case 'too_small':
      if (str && issue.minimum === 1) return zh ? '不能为空' : 'Must not be empty';
      if (str) return zh ? `至少 ${String(issue.minimum)} 个字符` : `At least ${String(issue.minimum)} characters`;
      if (arr) return zh ? `至少选择 ${String(issue.minimum)} 项` : `Choose at least ${String(issue.minimum)}`;
      return zh ? `不能小于 ${String(issue.minimum)}` : `Must be at least ${String(issue.minimum)}`;
    case 'too_big':
      if (str) return zh ? `最多 ${String(issue.maximum)} 个字符` : `At most ${String(issue.maximum)} characters`;
      if (arr) return zh ? `最多 ${String(issue.maximum)} 项` : `At most ${String(issue.maximum)} items`;
      return zh ? `不能大于 ${String(issue.maximum)}` : `Must be at most ${String(issue.maximum)}`;
    case 'invalid_format':
      if (issue.message === 'md5') return zh ? '应为 32 位小写 MD5 值' : 'Must be a 32-character lower-case MD5 hex';
      if (issue.message === 'date') return zh ? '应为存在的日期 YYYY-MM-DD' : 'Must be a real date YYYY-MM-DD';
      if (issue.message === 'datetime') return zh ? '应为存在的时间，ISO 8601 格式并带时区，例如 2026-03-01T08:00:00Z' : 'Must be a real time in ISO 8601 with a time zone, e.g. 2026-03-01T08:00:00Z';
      if (issue.message === 'http_url') return zh ? '应为以 http:// 或 https:// 开头的完整链接' : 'Must be a full link starting with http:// or https://';
      if (issue.message === 'upload_id') return zh ? '应为上传地址的最后一段（字母、数字、_ 或 -）' : 'Must be the last part of the upload URL (letters, digits, _ or -)';
      if (issue.message === 'account_chars')
        return zh ? '只能包含字母、数字和 _ . @ -' : 'Only letters, digits and _ . @ - are allowed';
      if (issue.message === 'domain') return zh ? '应为域名，例如 drama.example.com（不含 https:// 和路径）' : 'Must be a domain such as drama.example.com (no https:// or path)';
      if (issue.message === 'https_url') return zh ? '应为以 https:// 开头的完整链接' : 'Must be a full link starting with https://';
      if (issue.message === 'catalog_file') return zh ? '只支持 .csv 或 .xlsx 文件' : 'Only .csv or .xlsx files are supported';
      if (issue.message === 'cron') return zh ? '应为 5 段 cron 表达式：分 时 日 月 周（UTC），例如 0 3 * * *' : 'Must be 5 cron fields: minute hour day month weekday (UTC), e.g. 0 3 * * *';
      if (issue.message === 'job_name') return zh ? '只能包含小写字母、数字和 -' : 'Only lower-case letters, digits and - are allowed';
      return zh ? '格式不正确' : 'Invalid format';
    case 'invalid_value':
    case 'invalid_union':
      return zh ? '取值不在允许范围内' : 'Value is not one of the allowed values';
    case 'unrecognized_keys':
      return zh ? `未知字段：${String(issue.keys)}` : `Unknown fields: ${String(issue.keys)}`;
    default:
      return zh ? '取值无效' : 'Invalid value';
  }
}
