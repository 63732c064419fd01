import { z } from 'zod';

/** The "answer" of an export endpoint in the mocks: the mock replies with a spreadsheet blob. */
export const xlsx = z.literal('xlsx');
