// Minimal types for the parts of autocannon 8 this bench uses (@types/autocannon is not installed).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    p99_9: number;
  }

  interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds to wait for one response. */
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    title?: string;
    /** A body failing this check is counted in `mismatches`. */
    verifyBody?: (body: string) => boolean;
    body?: string | Buffer;
    /** Called with every connection's client as it is made (e.g. to give it its own headers). */
    setupClient?: (client: Client) => void;
    /** Requests each connection sends in turn; `setupRequest` rebuilds one before every send. */
    requests?: RequestSpec[];
  }

  interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (req: RequestSpec, context: Record<string, unknown>) => RequestSpec;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }

  interface Client {
    setHeaders(headers: Record<string, string>): void;
    setBody(body: string | Buffer): void;
    setHeadersAndBody(headers: Record<string, string>, body: string | Buffer): void;
  }

  interface Result {
    title?: string;
    url: string;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    '2xx': number;
    connections: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface Instance extends PromiseLike<Result> {
    stop(): void;
    /** Every answer: the connection's client, HTTP status, bytes and milliseconds. */
    on(event: 'response', listener: (client: Client, statusCode: number, resBytes: number, responseTime: number) => void): this;
  }

  function autocannon(opts: Options): Instance;

  export type { Options, Result, Histogram, Instance, Client, RequestSpec };
  export default autocannon;
}
