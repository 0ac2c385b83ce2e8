/** A min-priority queue of entries ordered by a tuple of numbers, then by insertion order (so ties are deterministic). */
export interface StepQueue<T> {
  push(priority: readonly number[], entry: T): void;
  /** The entry with the smallest priority, or undefined when empty. */
  pop(): T | undefined;
  readonly size: number;
}

interface Slot<T> {
  priority: readonly number[];
  order: number;
  entry: T;
}

function before<T>(a: Slot<T>, b: Slot<T>): boolean {
  const length = Math.max(a.priority.length, b.priority.length);
  for (let index = 0; index < length; index++) {
    const difference = (a.priority[index] ?? 0) - (b.priority[index] ?? 0);
    if (difference !== 0) return difference < 0;
  }
  return a.order < b.order;
}

/** Creates an empty {@link StepQueue} (a binary heap). */
export function createStepQueue<T>(): StepQueue<T> {
  const heap: Array<Slot<T>> = [];
  let order = 0;
  const swap = (i: number, j: number): void => {
    const a = heap[i];
    const b = heap[j];
    if (a === undefined || b === undefined) return;
    heap[i] = b;
    heap[j] = a;
  };
  const less = (i: number, j: number): boolean => {
    const a = heap[i];
    const b = heap[j];
    return a !== undefined && b !== undefined && before(a, b);
  };
  return {
    push(priority, entry) {
      heap.push({ priority, order: order++, entry });
      for (let index = heap.length - 1; index > 0;) {
        const parent = (index - 1) >> 1;
        if (!less(index, parent)) break;
        swap(index, parent);
        index = parent;
      }
    },
    pop() {
      const top = heap[0];
      const last = heap.pop();
      if (top === undefined || last === undefined) return undefined;
      if (heap.length === 0) return top.entry;
      heap[0] = last;
      for (let index = 0; ;) {
        const left = 2 * index + 1;
        const right = left + 1;
        let smallest = index;
        if (left < heap.length && less(left, smallest)) smallest = left;
        if (right < heap.length && less(right, smallest)) smallest = right;
        if (smallest === index) break;
        swap(index, smallest);
        index = smallest;
      }
      return top.entry;
    },
    get size() {
      return heap.length;
    },
  };
}
