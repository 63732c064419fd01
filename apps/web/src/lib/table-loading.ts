/**
 * Whether a table shows its loading overlay: before the first answer, and while the rows shown
 * are the previous query's (another page, filter or sort). A background refetch (polling while a
 * task runs, an invalidation after an action) keeps the table usable: antd's overlay would take
 * the clicks meant for its rows — a row's menu opened just then lost its click.
 */
export const tableLoading = (q: { isPending: boolean; isPlaceholderData: boolean }) => q.isPending || q.isPlaceholderData;
