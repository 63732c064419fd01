/**
 * The list-page kit (issue 11): one way for list and report screens to keep filters, sort and
 * page in the URL, show a table with totals, choose and save columns, export, pick date ranges
 * and say why a list is empty.
 */
export { ColumnChooser } from './column-chooser';
export { DATE_PRESETS, presetOf, presetRange, todayIn, type DatePreset, type DayRange } from './date-presets';
export { DateRangeField, useRangePresets, useReportTimezone } from './date-range-field';
export { ExportButton, exportBody, shownColumnKeys } from './export-button';
export { FilterBar } from './filter-bar';
export { ListEmpty, type EmptyConfig, type ListResult } from './list-states';
export { ListTable, SELECTION_WIDTH, tableScrollX, visibleColumns, type ListColumn, type ListPage } from './list-table';
export { defaultHiddenMetrics, metricColumns, type MetricRow, type MetricSummary, type MetricValues } from './metric-columns';
export { SelectionBar } from './selection-bar';
export { urlBoolean, urlInt } from './url-params';
export { useColumnPrefs, usePreference, useSavePreference, type ColumnPrefsState } from './use-column-prefs';
export { lastPageOf, nextListState, parseSearchParams, toSearchParams, useListQuery, type ListState, type ListView } from './use-list-query';
export { useRowSelection, type RowSelection } from './use-row-selection';
export { useStepBack } from './use-step-back';
