/** Indexed reads that cannot silently yield `undefined` (the compiler has `noUncheckedIndexedAccess` on). */

/** An index the code itself computed fell outside its array: a defect of the program, never of the user's input. */
export class IndexOutOfRangeError extends Error {
  constructor(index: number, length: number) {
    super(`Internal error: index ${index} is outside an array of length ${length}.`);
    this.name = 'IndexOutOfRangeError';
  }
}

/** The element at `i` (0-based, no negative indexes); throws IndexOutOfRangeError when there is none. */
export function at<T>(arr: ArrayLike<T>, i: number): T {
  const v = arr[i];
  if (v === undefined && !(i >= 0 && i < arr.length)) throw new IndexOutOfRangeError(i, arr.length);
  return v as T;
}

/** The element at `i` of a numeric (typed) array; monomorphic for hot loops. */
export function num(arr: ArrayLike<number>, i: number): number {
  const v = arr[i];
  if (v === undefined) throw new IndexOutOfRangeError(i, arr.length);
  return v;
}

/** The number at row `r`, column `c` of a matrix; throws IndexOutOfRangeError when either is missing. */
export function cell(matrix: ArrayLike<ArrayLike<number>>, r: number, c: number): number {
  return num(at(matrix, r), c);
}
