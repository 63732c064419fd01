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
  JOB_AD_RECONCILED: { zh: '已核对 {count} 条未完成的操作：成功 {ok}，失败 {failed}', en: 'Checked {count} unfinished operations: ok {ok}, failed {failed}' },
  AD_OBJECT_NOT_FOUND: { zh: '广告对象不存在或已不在你的数据范围内', en: 'The ad object does not exist or is outside your scope.' },
  AD_OP_SUPER_ADMIN_ONLY_STATUS: { zh: '超级管理员只能开启或暂停', en: 'The super admin may only switch objects on or off.' },
  AD_OP_NO_BUDGET_HERE: { zh: '「{name}」的预算在{holder}上，请在那里修改', en: 'The budget of "{name}" is held by its {holder}; change it there.' },
  AD_OP_BUDGET_LIMIT: { zh: '广告组「{name}」本小时已修改预算 {count} 次（平台限每小时 4 次），{at} 后可再改', en: 'The budget of ad set "{name}" was changed {count} times this hour (the platform allows 4); it may change again after {at}.' },
  AD_OP_CROSS_ACCOUNT: { zh: '只能复制到同一广告账户', en: 'Copies stay within the same ad account.' },
  AD_OP_NO_TOKEN: { zh: '没有可用的个号令牌可以操作该广告账户', en: 'No personal account with a working token reaches this ad account.' },
  AD_OP_CRASHED: { zh: '操作结果未知（服务中断），核对平台后确认未生效', en: 'The outcome was unknown (the service stopped); checked against the platform: it did not take effect.' },
  FX_RATE_INVALID: { zh: '汇率必须大于 0', en: 'A rate must be greater than 0.' },
  // Leadership and wider scopes (issue 11): only managers grant them; nobody manages a wider scope than their own.
  CANNOT_GRANT_LEADER: { zh: '只有管理员可以设置负责人身份', en: 'Only managers can make someone a leader.' },
  CANNOT_APPOINT_LEADER: { zh: '只有管理员可以任命部门负责人（任命会赋予其负责人身份）', en: 'Only managers can appoint a department leader (the appointment makes them a leader).' },
  CANNOT_MANAGE_WIDER_SCOPE: { zh: '该用户的数据范围比您的更大（负责人、管理员或可查看全公司授权资产），只有管理员可以管理', en: 'This user sees more than you do (a leader, a manager, or company-wide authorization assets); only managers can manage them.' },
  CANNOT_SET_ASSET_SCOPE: { zh: '只有管理员可以让角色查看全公司的授权资产', en: 'Only managers can give a role the company’s authorization assets.' },
  CANNOT_GRANT_ASSET_SCOPE: { zh: '不能授予查看全公司授权资产的角色：{roles}', en: 'You cannot grant roles that see the company’s authorization assets: {roles}' },
  ROLE_HELD_OUTSIDE_SCOPE: { zh: '角色「{name}」有 {count} 名成员不在您管理的范围内，只有管理员可以修改或删除它', en: 'The role "{name}" has {count} members outside the people you manage; only managers can change or delete it.' },
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

/** Turns a zod issue into a message a user can act on, in the given language. */
export function issueMessage(issue: IssueLike, lang: Lang): string {
  const zh = lang === 'zh';
  const str = issue.origin === 'string';
  const arr = issue.origin === 'array';
  // text.ts: a character no field takes.
  if (issue.message === 'text_chars') return zh ? '不能包含 NUL 控制字符或无效的 Unicode 字符' : 'Must not contain NUL or invalid Unicode characters';
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
