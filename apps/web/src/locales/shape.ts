/** The same keys as a source locale file, every leaf a string: `en` files satisfy this against `zh-CN`. */
export type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
