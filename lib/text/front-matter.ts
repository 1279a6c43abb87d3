/**
 * The front matter of a Markdown file (SKILL.md, a custom command): a `---` line, `key: value`
 * lines, a closing `---`, then the body. A small, strict reading of the YAML people write there:
 * plain, single- or double-quoted values, `|` and `>` blocks, and nested lines under a key (a
 * list, say) kept as that key's raw text. Pure.
 */
export type FrontMatter = { ok: true; fields: Record<string, string>; body: string } | { ok: false; why: string };

export function parseFrontMatter(text: string): FrontMatter {
  const source = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (!/^---[ \t]*\n/.test(source)) return { ok: true, fields: {}, body: source };
  const lines = source.split("\n");
  const end = lines.findIndex((line, i) => i > 0 && /^---[ \t]*$/.test(line));
  if (end === -1) return { ok: false, why: "the front matter has no closing --- line" };
  const fields: Record<string, string> = {};
  let block: { key: string; style: string; lines: string[] } | undefined;
  const closeBlock = () => {
    if (!block) return;
    const kept = block.lines.join("\n").replace(/\s+$/, "");
    const indent = Math.min(...block.lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
    const dedented = kept
      .split("\n")
      .map((l) => l.slice(Number.isFinite(indent) ? indent : 0))
      .join("\n");
    fields[block.key] = block.style === ">" ? dedented.replace(/\n(?!\n)/g, " ").replace(/\n\n/g, "\n") : dedented;
    block = undefined;
  };
  for (let i = 1; i < end; i++) {
    const line = lines[i]!;
    if (block && (/^\s/.test(line) || line.trim() === "")) {
      block.lines.push(line);
      continue;
    }
    closeBlock();
    if (line.trim() === "" || /^\s*#/.test(line)) continue;
    const match = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*))?$/.exec(line);
    if (!match) return { ok: false, why: `front matter line ${i + 1} is not "key: value": ${line.trim().slice(0, 60)}` };
    const key = match[1]!;
    const raw = (match[2] ?? "").trim();
    if (raw === "" || /^[|>][+-]?$/.test(raw)) {
      block = { key, style: raw.startsWith(">") ? ">" : "|", lines: [] };
      continue;
    }
    const value = unquote(raw);
    if (value === undefined) return { ok: false, why: `front matter line ${i + 1} has an unclosed quote` };
    fields[key] = value;
  }
  closeBlock();
  return { ok: true, fields, body: lines.slice(end + 1).join("\n") };
}

function unquote(raw: string): string | undefined {
  if (raw.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"$/.test(raw)) return undefined;
    try {
      return JSON.parse(raw) as string;
    } catch {
      return raw.slice(1, -1);
    }
  }
  if (raw.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(raw)) return undefined;
    return raw.slice(1, -1).replace(/''/g, "'");
  }
  return raw.replace(/\s+#.*$/, "");
}
