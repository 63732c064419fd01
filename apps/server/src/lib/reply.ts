import { CODE_OK, envelope, type Envelope } from '@ads/contracts';
import { z } from 'zod';

/** A success envelope. */
export function ok<T>(data: T): Envelope<T> {
  return { code: CODE_OK, message: 'ok', data };
}

/** Response schemas for route declarations: the success shape, plus the error envelope every route may answer. */
export function responses<T extends z.ZodType>(data: T) {
  return { 200: envelope(data).or(envelope(z.any())) };
}
