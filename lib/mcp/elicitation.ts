/**
 * A server's question (`elicitation/create`, form mode) in shiro's terms: the fields of its
 * requested schema (the specification's primitive types only: text, number, integer, boolean,
 * one choice, several choices), each with its title, default and allowed values, and how a
 * typed answer becomes a value of the schema's type. Pure: the loop draws the question and reads
 * the answers; connect.ts hands them to the SDK, which fills in the defaults the user left.
 */

export type ElicitOption = { value: string; label: string };
export type ElicitField = {
  name: string;
  title: string;
  description?: string;
  required: boolean;
  kind: "text" | "number" | "integer" | "boolean" | "choice" | "choices";
  options?: ElicitOption[];
  default?: string | number | boolean | string[];
  min?: number;
  max?: number;
  /** Text only: email, uri, date or date-time. */
  format?: string;
};
export type ElicitQuestion = { server: string; message: string; fields: ElicitField[] };
export type ElicitValue = string | number | boolean | string[];
export type ElicitAnswer = { action: "accept"; content: Record<string, ElicitValue> } | { action: "decline" } | { action: "cancel" };
/** Puts a question to the user; only the interactive loop has one. */
export type Elicitor = (question: ElicitQuestion, signal: AbortSignal) => Promise<ElicitAnswer>;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const num = (value: unknown) => (typeof value === "number" ? value : undefined);

function optionsOf(schema: Json): ElicitOption[] | undefined {
  const titled = (Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined) as unknown[] | undefined;
  if (titled) return titled.filter(isObject).map((o) => ({ value: String(o.const), label: typeof o.title === "string" ? o.title : String(o.const) }));
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => ({ value: String(value), label: typeof names[i] === "string" ? names[i] : String(value) }));
  }
  return undefined;
}

/** The fields of a requested schema, in its order. A property of a kind the specification does not allow is shown as text. */
export function fieldsOf(requested: unknown): ElicitField[] {
  if (!isObject(requested) || !isObject(requested.properties)) return [];
  const required = new Set(Array.isArray(requested.required) ? requested.required.map(String) : []);
  return Object.entries(requested.properties).map(([name, raw]) => {
    const schema = isObject(raw) ? raw : {};
    const field: ElicitField = { name, title: typeof schema.title === "string" ? schema.title : name, required: required.has(name), kind: "text" };
    if (typeof schema.description === "string") field.description = schema.description;
    const options = schema.type === "array" && isObject(schema.items) ? optionsOf(schema.items) : optionsOf(schema);
    if (schema.type === "array" && options) {
      Object.assign(field, { kind: "choices", options, min: num(schema.minItems), max: num(schema.maxItems) });
    } else if (options) {
      Object.assign(field, { kind: "choice", options });
    } else if (schema.type === "number" || schema.type === "integer") {
      Object.assign(field, { kind: schema.type, min: num(schema.minimum), max: num(schema.maximum) });
    } else if (schema.type === "boolean") {
      field.kind = "boolean";
    } else {
      Object.assign(field, { min: num(schema.minLength), max: num(schema.maxLength), ...(typeof schema.format === "string" ? { format: schema.format } : {}) });
    }
    if (schema.default !== undefined) field.default = schema.default as ElicitValue;
    for (const key of ["min", "max"] as const) if (field[key] === undefined) delete field[key];
    return field;
  });
}

/** One line for a field: `Seats (integer, 1 to 4, default 2, required): how many`. */
export function describeField(field: ElicitField): string {
  const kind =
    field.kind === "choice" || field.kind === "choices"
      ? `${field.kind === "choices" ? "one or more of" : "one of"}: ${field.options!.map((o) => (o.label === o.value ? o.value : `${o.value} (${o.label})`)).join(", ")}`
      : field.kind === "boolean"
        ? "yes or no"
        : field.format
          ? `${field.kind}, ${field.format}`
          : field.kind;
  const bounds = field.min !== undefined || field.max !== undefined ? `, ${field.min ?? "…"} to ${field.max ?? "…"}${field.kind === "text" ? " characters" : field.kind === "choices" ? " choices" : ""}` : "";
  const fallback = field.default !== undefined ? `, default ${Array.isArray(field.default) ? field.default.join(", ") : String(field.default)}` : "";
  return `${field.title} (${kind}${bounds}${fallback}${field.required ? ", required" : ""})${field.description ? `: ${field.description}` : ""}`;
}

/**
 * A typed answer to one field: its value in the schema's type, `skip` for an empty answer (the
 * default then applies, or the field is left out), or what is wrong, in one line.
 */
export function parseFieldAnswer(field: ElicitField, text: string): { value: ElicitValue } | { skip: true } | { error: string } {
  const answer = text.trim();
  if (answer === "") return field.required && field.default === undefined ? { error: `${field.title} is required` } : { skip: true };
  const within = (n: number, what: string) =>
    (field.min !== undefined && n < field.min) || (field.max !== undefined && n > field.max) ? `${field.title}: ${what} must be from ${field.min ?? "…"} to ${field.max ?? "…"}` : undefined;
  switch (field.kind) {
    case "boolean":
      if (/^(y|yes|true)$/i.test(answer)) return { value: true };
      if (/^(n|no|false)$/i.test(answer)) return { value: false };
      return { error: `${field.title}: answer yes or no` };
    case "number":
    case "integer": {
      const n = Number(answer);
      if (!Number.isFinite(n) || (field.kind === "integer" && !Number.isInteger(n))) return { error: `${field.title}: must be ${field.kind === "integer" ? "a whole number" : "a number"}` };
      const wrong = within(n, "the number");
      return wrong ? { error: wrong } : { value: n };
    }
    case "choice": {
      const found = pick(field.options!, answer);
      return found ? { value: found } : { error: `${field.title}: must be one of ${field.options!.map((o) => o.value).join(", ")}` };
    }
    case "choices": {
      const picked = answer.split(",").map((part) => part.trim()).filter(Boolean);
      const values = picked.map((part) => pick(field.options!, part));
      const unknown = picked.filter((_, i) => values[i] === undefined);
      if (unknown.length) return { error: `${field.title}: ${unknown.join(", ")} is not one of ${field.options!.map((o) => o.value).join(", ")}` };
      const wrong = within(values.length, "the number of choices");
      return wrong ? { error: wrong } : { value: [...new Set(values as string[])] };
    }
    case "text": {
      const wrong = within(answer.length, "the length");
      if (wrong) return { error: wrong };
      if (field.format === "email" && !/^[^\s@]+@[^\s@]+$/.test(answer)) return { error: `${field.title}: must be an email address` };
      if (field.format === "uri" && !URL.canParse(answer)) return { error: `${field.title}: must be a URL` };
      if (field.format === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(answer)) return { error: `${field.title}: must be a date (YYYY-MM-DD)` };
      if (field.format === "date-time" && Number.isNaN(Date.parse(answer))) return { error: `${field.title}: must be a date and time (ISO 8601)` };
      return { value: answer };
    }
    default:
      return field.kind satisfies never;
  }
}

function pick(options: readonly ElicitOption[], answer: string): string | undefined {
  const lower = answer.toLowerCase();
  return (options.find((o) => o.value === answer) ?? options.find((o) => o.value.toLowerCase() === lower || o.label.toLowerCase() === lower))?.value;
}
