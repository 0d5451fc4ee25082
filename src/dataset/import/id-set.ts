// The Ids seen so far in one collection, as sorted disjoint ranges: a file sorted by Id (as the export writes it)
// needs one range per gap in the numbering, so duplicate detection does not grow with the number of records.
export class IdSet {
  // Range i is starts[i]..ends[i]; every index used below is checked against the number of ranges first.
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  /** Adds id; false if it was already there. */
  add(id: number): boolean {
    const n = this.starts.length;
    if (n === 0 || id > nth(this.ends, n - 1) + 1) {
      this.starts.push(id);
      this.ends.push(id);
      return true;
    }
    if (id === nth(this.ends, n - 1) + 1) {
      this.ends[n - 1] = id;
      return true;
    }
    // binary search for the last range starting at or before id
    let lo = 0;
    let hi = n - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (nth(this.starts, mid) <= id) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (at >= 0 && id <= nth(this.ends, at)) return false;
    if (at >= 0 && id === nth(this.ends, at) + 1) {
      this.ends[at] = id;
      if (at + 1 < n && this.starts[at + 1] === id + 1) this.merge(at);
      return true;
    }
    if (at + 1 < n && this.starts[at + 1] === id + 1) {
      this.starts[at + 1] = id;
      return true;
    }
    this.starts.splice(at + 1, 0, id);
    this.ends.splice(at + 1, 0, id);
    return true;
  }

  /** Number of ranges (memory use). */
  get ranges(): number {
    return this.starts.length;
  }

  private merge(at: number): void {
    this.ends[at] = nth(this.ends, at + 1);
    this.starts.splice(at + 1, 1);
    this.ends.splice(at + 1, 1);
  }
}

/** Element i of a range list; a missing one is a bug of IdSet, not of the input. */
function nth(list: number[], i: number): number {
  const value = list[i];
  if (value === undefined) throw new RangeError(`IdSet: no range ${i} of ${list.length}`);
  return value;
}
