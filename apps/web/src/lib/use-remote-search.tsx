import { Spin, type SelectProps } from 'antd';
import { useCallback, useState } from 'react';
import { useDebouncedValue } from './use-debounced-value';

/** What a picker needs to know of a lookup query (a TanStack Query result). */
export interface SearchAnswer {
  isFetching: boolean;
  /** Pending with nothing to show yet (the first load of this search). */
  isLoading: boolean;
  /** Showing the answer to an earlier search while this one is on its way (keepPreviousData). */
  isPlaceholderData: boolean;
}

const NONE: never[] = [];
const SEARCHING = <Spin size="small" />;

export interface RemoteSearch {
  /** What to ask the server for: the typed text once typing pauses (an emptied box at once). */
  term: string;
  /**
   * The Select props of the picker, given the queries asked for `term` and the options made
   * from their answer. The dropdown lists only the answer to the text in the box: while that
   * answer is on its way it shows a spinner instead of the previous answer, so no option moves
   * or changes under the pointer (a click that lands as the answer arrives is not lost or given
   * to another option). Labels of chosen values stay without listing them: antd keeps the label
   * of every value it has shown, and `labelRender` covers values set from outside.
   */
  selectProps<O>(answer: SearchAnswer | readonly SearchAnswer[], options: O[]): Pick<SelectProps, 'showSearch' | 'loading' | 'notFoundContent' | 'onOpenChange'> & { options: O[] };
}

/** The search state of a picker whose options are looked up on the server as the user types. */
export function useRemoteSearch(): RemoteSearch {
  const [typed, setTyped] = useState('');
  const trimmed = typed.trim();
  const debounced = useDebouncedValue(trimmed);
  // Emptying the box (a multiple select does it after each choice) asks at once: that list is cached.
  const term = trimmed === '' ? '' : debounced;
  const onOpenChange = useCallback((open: boolean) => {
    if (!open) setTyped('');
  }, []);
  const selectProps = <O,>(answer: SearchAnswer | readonly SearchAnswer[], options: O[]) => {
    const answers: readonly SearchAnswer[] = Array.isArray(answer) ? answer : [answer as SearchAnswer];
    const settled = term === trimmed && answers.every((a) => !a.isPlaceholderData && !a.isLoading);
    return {
      showSearch: { filterOption: false, onSearch: setTyped, searchValue: typed },
      options: settled ? options : (NONE as O[]),
      loading: answers.some((a) => a.isFetching),
      notFoundContent: settled ? undefined : SEARCHING,
      onOpenChange,
    };
  };
  return { term, selectProps };
}

/** A `labelRender` for a picker: the label antd knows, else `fallback(value)`, else `#value`. */
export function labelOr(fallback: (value: number | string) => string | null | undefined = () => undefined): NonNullable<SelectProps['labelRender']> {
  return ({ label, value }) => label ?? fallback(value) ?? `#${value}`;
}
