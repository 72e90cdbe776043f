/** The range of a plant id and of a row cursor: a signed 64-bit integer. */
export const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n
