import type { Todo } from "./schema.ts";

export type NotebookListener = (todos: readonly Todo[], previous: readonly Todo[]) => void;

export type Notebook = {
  /** The current list. Frozen: replace it with replace(), never edit it in place. */
  todos(): readonly Todo[];
  /** Swaps in a new list (copied; the caller's array is not kept). Notifies only if it differs. */
  replace(todos: readonly Todo[]): void;
  /** Same as replace([]). */
  clear(): void;
  /**
   * Calls `listener` after every change with the new and the previous list. Returns the
   * unsubscribe function. Listeners run synchronously and must not throw: the list has already
   * changed when they run.
   */
  onChange(listener: NotebookListener): () => void;
};

/**
 * The session's task list: a plain state holder, no I/O. Input is trusted (already parsed by
 * todo_write or restoreTodos). One per session; the loop reads todos() before every step.
 */
export function createNotebook(initial: readonly Todo[] = []): Notebook {
  let current = freeze(initial);
  const listeners = new Set<NotebookListener>();

  function replace(todos: readonly Todo[]): void {
    const next = freeze(todos);
    if (sameTodos(next, current)) return;
    const previous = current;
    current = next;
    for (const listener of [...listeners]) listener(current, previous);
  }

  return {
    todos: () => current,
    replace,
    clear: () => replace([]),
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

function freeze(todos: readonly Todo[]): readonly Todo[] {
  return Object.freeze(todos.map((todo) => Object.freeze({ ...todo })));
}

function sameTodos(a: readonly Todo[], b: readonly Todo[]): boolean {
  return (
    a.length === b.length &&
    a.every((todo, i) => {
      const other = b[i];
      return other !== undefined && todo.content === other.content && todo.status === other.status && todo.note === other.note;
    })
  );
}
