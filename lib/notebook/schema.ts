import * as v from "valibot";

/** The four states, in the order the tool description and error messages list them. */
export const TODO_STATUSES = ["pending", "in_progress", "completed", "blocked"] as const;

export const TodoStatus = v.picklist(
  TODO_STATUSES,
  (issue) => `must be one of ${TODO_STATUSES.join(", ")} (got ${issue.received})`,
);
export type TodoStatus = v.InferOutput<typeof TodoStatus>;

/**
 * Message for an object schema: valibot reports a missing key through the object's message,
 * with the key quoted in `expected`; anything else means the value itself is not an object.
 */
function objectMessage(shape: string) {
  return (issue: v.ObjectIssue) =>
    issue.received === "undefined" && issue.expected.startsWith('"') ? "is required" : `must be an object ${shape} (got ${issue.received})`;
}

/** Trims and folds any run of whitespace (newlines included) to one space: one task is one rendered line. */
const oneLine = v.transform((text: string) => text.trim().replace(/\s+/g, " "));

/**
 * One task. `content` is a single non-empty line. A `note` that is empty after trimming is
 * dropped, so "has a note" always means "has something to say" (rules.ts relies on it).
 */
export const Todo = v.pipe(
  v.object(
    {
      content: v.pipe(v.string("must be a string"), oneLine, v.nonEmpty("must not be empty")),
      status: TodoStatus,
      note: v.optional(v.pipe(v.string("must be a string"), oneLine)),
    },
    objectMessage("{ content, status, note? }"),
  ),
  v.transform(({ content, status, note }) => {
    const todo: { content: string; status: TodoStatus; note?: string } = { content, status };
    if (note) todo.note = note;
    return todo;
  }),
);
export type Todo = v.InferOutput<typeof Todo>;

/** The whole list, as todo_write receives it and as the session record stores it. */
export const TodoList = v.array(Todo, (issue) => `must be an array of { content, status, note? } (got ${issue.received})`);

/** A task list longer than this is refused by todo_write: it is a plan, not a log. */
export const TODO_MAX_ITEMS = 100;
/** A task's content, or its note, longer than this is refused by todo_write, never cut. */
export const TODO_TEXT_MAX_CHARS = 500;
