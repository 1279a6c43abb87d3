import * as v from "valibot";

/**
 * One problem of a failed parse as "path: message" (`todos.2.status: must be one of …`), or the
 * message alone when it is about the whole value. With `separator: " "` it reads as a sentence
 * for messages written that way (`status must be one of …`).
 */
export function issueText(issue: v.BaseIssue<unknown>, separator = ": "): string {
  const path = v.getDotPath(issue);
  return path ? `${path}${separator}${issue.message}` : issue.message;
}
