/**
 * The three outputs of `langchain-vcr diff`: text for a terminal, markdown for a pull-request
 * comment (a short table, then the changed texts as the changed words in context), and JSON
 * (`{ changed, added, removed, rerecorded, damaged }`, differences as in `VcrMissError.nearest`).
 */
import type { VcrDifference } from "../errors";
import { formatValue, keyedInOtherForm } from "../diagnose/diff";
import { requestChangeOf, type DiffReport, type ShownDifference } from "./diffCompute";
import { binaryLabel } from "../kinds/binaryText";

const MAX_DIFFS = 8;
const CONTEXT_WORDS = 6;

export interface DiffHeader {
  dir: string;
  base: string;
}

export function renderJson(r: DiffReport): string {
  const unused = [...r.changed.filter((c) => c.unused).map((c) => c.after), ...r.added.filter((x) => x.unused).map((x) => x.file)];
  const diffs = (d: VcrDifference[]) => d.map((x) => ({ path: x.path, recorded: x.recorded, requested: x.requested }));
  const out = {
    changed: r.changed.map((c) => ({
      before: c.before,
      after: c.after,
      kind: c.kind,
      request: diffs(c.request),
      response: diffs(c.response),
      ...(c.migrated ? { migrated: true } : {}),
      ...(c.unused ? { unused: true } : {}),
    })),
    added: r.added.map((x) => x.file),

    // an added fixture that edits one still there, unchanged (before prune): which, and how they differ
    addedEdits: r.added.flatMap((x) =>
      x.editOf ? [{ added: x.file, editOf: x.editOf.file, request: diffs(x.editOf.request), response: diffs(x.editOf.response) }] : [],
    ),
    removed: r.removed.map((x) => x.file),
    rerecorded: r.rerecorded.map((x) => ({
      file: x.file,
      kind: x.kind,
      ...(x.request.length ? { request: diffs(x.request) } : {}),
      response: diffs(x.response),
      ...(x.editedByHand ? { editedByHand: true } : {}),
    })),
    damaged: r.damaged,
    // added or changed-to fixtures no test used in the last complete run (recorded before it started): only when there are some
    ...(unused.length ? { unused } : {}),
    ...(r.unsureRewrites
      ? {
          unsureRewrites: r.unsureRewrites,
          sameQuestionAs: r.added.flatMap((x) => (x.sameQuestionAs ? [{ added: x.file, sameQuestionAs: x.sameQuestionAs }] : [])),
        }
      : {}),
  };
  return JSON.stringify(out, null, 2) + "\n";
}

export function renderText(r: DiffReport, h: DiffHeader): string {
  const lines = [`langchain-vcr diff: ${h.dir} (${h.base} → working tree): ${summary(r)}`, ...unsure(r)];
  const asAbove = sameAsAbove();
  for (const c of r.changed.filter((x) => !x.migrated)) {
    lines.push("", `changed ${c.kind} ${c.title}`, `  ${c.before} → ${c.after}`);
    if (c.unused) lines.push(`  ${UNUSED}`);
    lines.push(...(asAbove(c) ? [`  request: ${SAME_CHANGE}`] : section("request", c.request, false)), ...section("response", c.response, false));
  }
  const migrated = r.changed.filter((x) => x.migrated);
  if (migrated.length) lines.push("", `migrated from an older schema version (langchain-vcr migrate):`);
  for (const c of migrated) {
    lines.push(`  ${c.before} → ${c.after}${beyondUpgrade(c) ? ` (${beyondUpgrade(c)} difference(s) beyond the upgrade):` : ""}`);
    // an edit made beside the migration (a hand-edited answer) is shown, not only counted: it is what a reviewer must see
    if (beyondUpgrade(c))
      lines.push(
        ...[...section("request", c.request, false), ...section("response", c.response, false)].filter((l) => !l.endsWith(": same")).map((l) => "  " + l),
      );
  }
  const [alike, differing] = splitAlike(r.rerecorded);
  for (const x of differing) {
    lines.push("", `${rerecordedLabel(x)} ${x.kind} ${x.title}`, `  ${x.file}`);
    lines.push(...(x.request.length ? section("request", x.request, false) : []), ...section("response", x.response, false));
  }
  if (alike.length) {
    lines.push("", `re-recorded with no difference a review shows (${alike.length}): ${ALIKE}`);
    for (const x of alike) lines.push(`  ${x.file}  ${x.kind} ${x.title}`);
  }
  if (r.added.length + r.removed.length) lines.push("");
  for (const f of r.added) {
    lines.push(`added    ${f.file}  ${f.kind} ${f.title}`);
    if (f.unused) lines.push(`  ${UNUSED}`);
    if (f.sameQuestionAs) lines.push(`  ${asksAsked(f.sameQuestionAs)}`);
    if (f.editOf) lines.push(`  ${stillHere(f.editOf)}`, ...section("request", f.editOf.request, false), ...section("response", f.editOf.response, false));
  }
  for (const f of r.removed) lines.push(`removed  ${f.file}  ${f.kind} ${f.title}`);
  for (const d of r.damaged) lines.push(`damaged  ${d.file} (${d.side}): ${d.problem}`);
  return lines.join("\n") + "\n";
}

export function renderMarkdown(r: DiffReport, h: DiffHeader): string {
  const unused = r.changed.some((c) => c.unused) || r.added.some((f) => f.unused);
  const lines = [
    `### langchain-vcr: fixtures in \`${h.dir}\``,
    "",
    `${summary(r)} (against \`${h.base}\`).`,
    ...unsure(r).map((l) => "\n" + l),
    ...(unused ? [`\n_(unused): ${escapeMd(UNUSED)}._`] : []),
  ];
  const [alike, differing] = splitAlike(r.rerecorded);
  const rows: string[][] = [
    ...r.changed.map((c) => [
      (c.migrated ? "migrated" : "changed") + (c.unused ? " (unused)" : ""),
      c.kind,
      cell(c.title),
      `${code((c.migrated ? [...c.request.map(shown), ...c.response.map((d) => `response ${d.path}`)] : c.request.map(shown)).join(", ") || "—")}`,
      `${code(short(c.before))} → ${code(short(c.after))}`,
    ]),
    ...differing.map((x) => [
      rerecordedLabel(x),
      x.kind,
      cell(x.title),
      code([...x.request.map(shown), ...x.response.map((d) => `response ${d.path}`)].join(", ")), // one of the two differs: the row is not alike
      code(short(x.file)),
    ]),
    ...(alike.length ? [["re-recorded", "—", `${alike.length} fixture(s) with no difference a review shows: ${ALIKE}`, "—", "—"]] : []),
    ...r.added.map((f) => [
      f.unused ? "added (unused)" : "added",
      f.kind,
      cell(f.title),
      f.editOf ? `${code(f.editOf.request.map(shown).join(", "))} (an edit: see below)` : f.sameQuestionAs ? asksAsked(code(short(f.sameQuestionAs))) : "—",
      code(short(f.file)),
    ]),
    ...r.removed.map((f) => ["removed", f.kind, cell(f.title), "—", code(short(f.file))]),
    ...r.damaged.map((d) => ["damaged", d.side, cell(d.problem), "", code(short(d.file))]),
  ];
  const blocks: string[][] = [];
  const asAbove = sameAsAbove();
  for (const c of r.changed.filter((x) => !x.migrated || beyondUpgrade(x))) {
    const note = c.migrated ? " (migrated, and changed beyond the upgrade)" : "";
    const request = !c.migrated && asAbove(c) ? [`- request: ${SAME_CHANGE}`] : section("request", c.request, true);
    blocks.push(["", `**${c.kind}** ${cell(c.title)}${note}`, "", ...request, ...section("response", c.response, true)]);
  }
  for (const f of r.added.filter((x) => x.editOf)) {
    const e = f.editOf!;
    blocks.push([
      "",
      `**${f.kind}** ${cell(f.title)} (added)`,
      "",
      `_${escapeMd(stillHere(e))}_`,
      ...section("request", e.request, true),
      ...section("response", e.response, true),
    ]);
  }
  for (const x of differing) {
    blocks.push([
      "",
      `**${x.kind}** ${cell(x.title)} (${rerecordedLabel(x)})`,
      "",
      ...(x.request.length ? section("request", x.request, true) : []), // the same name: the same request, unless a redaction changed
      ...section("response", x.response, true),
    ]);
  }
  return fitComment(
    lines,
    rows.map((row) => `| ${row.join(" | ")} |`),
    blocks,
  );
}

/**
 * What a pull-request comment holds: GitHub refuses a comment body over 65,536 characters, and a
 * model upgrade re-records every fixture. The table comes first, then the changed texts, as many
 * as fit; a report cut short says how much was left out and where to read all of it.
 */
export const COMMENT_LIMIT = 60_000;

function fitComment(head: string[], rows: string[], blocks: string[][]): string {
  const full = [...head, ...(rows.length ? ["", TABLE_HEAD, TABLE_RULE, ...rows] : []), ...blocks.flat()].join("\n") + "\n";
  if (full.length <= COMMENT_LIMIT) return full;
  const closing = (rowsLeft: number, blocksLeft: number) => {
    const left: string[] = [];
    if (rowsLeft) left.push(`${rowsLeft} of the table's ${rows.length} rows`);
    if (blocksLeft) left.push(`${blocksLeft} of ${blocks.length} changed fixtures' details`);
    return (
      `_Cut to fit a pull-request comment: ${left.join(" and ")} left out (the whole report is ${full.length} characters). ` +
      `All of it: the same command with \`--format text\` or \`--format json\`._`
    );
  };
  const budget = COMMENT_LIMIT - closing(rows.length, blocks.length).length - 2; // the longest closing line, and its blank line
  const out = [...head];
  let size = out.join("\n").length + 1;
  const take = (more: string[]) => {
    const add = more.reduce((n, l) => n + l.length + 1, 0);
    if (size + add > budget) return false;
    out.push(...more);
    size += add;
    return true;
  };
  let shownRows = 0;
  if (rows.length && take(["", TABLE_HEAD, TABLE_RULE])) while (shownRows < rows.length && take([rows[shownRows]])) shownRows++;
  let shownBlocks = 0;
  if (shownRows === rows.length) while (shownBlocks < blocks.length && take(blocks[shownBlocks])) shownBlocks++;
  out.push("", closing(rows.length - shownRows, blocks.length - shownBlocks));
  return out.join("\n") + "\n";
}

const TABLE_HEAD = "| | kind | request | changed fields | fixture |";
const TABLE_RULE = "|---|---|---|---|---|";

/** What a re-recorded fixture with no reviewed difference changed (`record_always` over answers that came back the same). */
const ALIKE = "only what a review leaves out changed (the recording time, ids, provider metadata, reasoning text, the contents of blocks that are not text)";

type Rerecorded = DiffReport["rerecorded"][number];

/** What a change shown right after another that did the same to its request says, instead of the same lines again. */
const SAME_CHANGE = "the same change as the fixture above";
/** An added fixture no test used in the last complete run, recorded before it (`DiffListed.unused`). */
const UNUSED =
  "no test used it in the last complete run on this machine, which started after it was recorded: a test deleted or renamed since? " +
  "Then delete it (prune keeps what git does not hold as committed); committed, it fails prune --check";

/** Whether each change, asked in order, did to its request what the change asked before it did (changes come grouped: `sortChanges`). */
function sameAsAbove(): (c: { request: readonly VcrDifference[] }) => boolean {
  let last: string | undefined;
  return (c) => {
    const key = c.request.length ? requestChangeOf(c) : undefined;
    const same = key !== undefined && key === last;
    last = key;
    return same;
  };
}

/** What tells an edit from a new test beside the old one, when no complete run on this machine said (`DiffReport.unsureWhy`). */
export const WHOLE_RUN_FIX = "run the whole suite, then diff again, or prune first";

/**
 * The note for added fixtures that may edit one still there, which no complete run on this machine says is unused
 * (`DiffReport.unsureRewrites`): shown as added, with what would tell.
 */
function unsure(r: DiffReport): string[] {
  if (!r.unsureRewrites) return [];
  return [
    `note: ${r.unsureRewrites} added fixture(s) ask the same question as a fixture still here, unchanged (each says which): an edit of it (a ` +
      `rewritten prompt or description, another parameter value), or a new test beside it. No complete run on this machine says which, so they ` +
      `are shown as added: ${r.unsureWhy ?? WHOLE_RUN_FIX}.`,
  ];
}

/** An added fixture that asks what one still there asked, which no complete run says is unused (`DiffListed.sameQuestionAs`). */
function asksAsked(file: string): string {
  return `asks what ${file} asked: an edit of it, or a new test beside it (see the note)`;
}

/**
 * An added fixture that edits one still there: the old one stays until prune removes it (once no test uses it). Not when
 * the new one is the old request keyed in another form (`keyedInOtherForm`) and no ledger judged the old one: a call of the
 * new request finds its key through the old one (which holds the other API's or provider's answer), so a run that makes it
 * counts both as used, and prune keeps both (trial 54: the note said prune would remove it). A ledger that says the old one
 * went unused (`unusedByLastRun`) says no test makes that call: prune removes it.
 */
function stillHere(e: { file: string; request: readonly VcrDifference[]; unusedByLastRun?: true }): string {
  const other = e.unusedByLastRun ? undefined : keyedInOtherForm(e.request);
  if (other) {
    return `an edit of ${e.file}, which is still here, unchanged: it holds the other ${other} answer, and a call of this request finds its key through it, so prune keeps both while a test makes that call`;
  }
  return `an edit of ${e.file}, which is still here, unchanged: once no test uses it, langchain-vcr prune removes it`;
}

/** A fixture rewritten under its own name: recorded again, or edited by hand (its recording time unchanged). */
function rerecordedLabel(x: Rerecorded): string {
  return x.editedByHand ? "edited by hand (recordedAt unchanged)" : "re-recorded";
}

/** The re-recorded fixtures whose request and answer a review sees as the same, and the others: the first are listed, not shown one by one. */
function splitAlike(all: readonly Rerecorded[]): [Rerecorded[], Rerecorded[]] {
  const alike: Rerecorded[] = [];
  const differing: Rerecorded[] = [];
  for (const x of all) (x.request.length === 0 && x.response.length === 0 && !x.editedByHand ? alike : differing).push(x);
  return [alike, differing];
}

/** How many differences a migrated fixture has beyond what the upgrade itself changes. */
function beyondUpgrade(c: { request: unknown[]; response: unknown[] }): number {
  return c.request.length + c.response.length;
}

function summary(r: DiffReport): string {
  const n = (count: number, what: string) => `${count} ${what}`;
  const migrated = r.changed.filter((c) => c.migrated).length;
  const byHand = r.rerecorded.filter((x) => x.editedByHand).length;
  const rerecorded = n(r.rerecorded.length, "re-recorded") + (byHand ? ` (${byHand} edited by hand)` : "");
  return [n(r.changed.length - migrated, "changed"), n(r.added.length, "added"), n(r.removed.length, "removed"), rerecorded]
    .concat(migrated ? [n(migrated, "migrated")] : [])
    .concat(r.damaged.length ? [n(r.damaged.length, "damaged")] : [])
    .join(", ");
}

function section(label: string, diffs: ShownDifference[], markdown: boolean): string[] {
  if (diffs.length === 0) return [markdown ? `- ${label}: same` : `  ${label}: same`]; // a prompt edit that left the answer alone is news to a reviewer
  const role = (d: ShownDifference) => (d.role ? ` (${d.role})` : "");
  const lines = diffs
    .slice(0, MAX_DIFFS)
    .map((d) => (markdown ? `- ${label} \`${d.path}\`${role(d)}: ${change(d, true)}` : `  ${label} ${shown(d)}: ${change(d, false)}`));
  if (diffs.length > MAX_DIFFS) lines.push(markdown ? `- … and ${diffs.length - MAX_DIFFS} more` : `  … and ${diffs.length - MAX_DIFFS} more`);
  return lines;
}

/** A difference's path, with the role of the message it is in: `messages[0].content (system)`. */
function shown(d: ShownDifference): string {
  return d.role ? `${d.path} (${d.role})` : d.path;
}

/** A difference: a changed text as its changed words in context, any other value as old → new. */
function change(d: VcrDifference, markdown: boolean): string {
  // a file's bytes as base64 (an image a tool returned): its size and digest on each side, not windows of its characters
  const binary = (v: unknown) => (typeof v === "string" ? binaryLabel(v) : undefined);
  if (binary(d.recorded) !== undefined || binary(d.requested) !== undefined) {
    const side = (v: unknown) => binary(v) ?? formatValue(v);
    return markdown ? `${code(side(d.recorded))} → ${code(side(d.requested))}` : `${side(d.recorded)} → ${side(d.requested)}`;
  }
  if (typeof d.recorded === "string" && typeof d.requested === "string") return wordChange(d.recorded, d.requested, markdown);
  return markdown ? `${code(formatValue(d.recorded))} → ${code(formatValue(d.requested))}` : `${formatValue(d.recorded)} → ${formatValue(d.requested)}`;
}

/** The words that changed between two texts, with a few unchanged words either side. */
export function wordChange(before: string, after: string, markdown: boolean): string {
  const a = before.split(/(\s+)/);
  const b = after.split(/(\s+)/);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const words = (parts: string[]) => parts.filter((p) => p.trim() !== "");
  const pre = words(a.slice(0, start));
  const post = words(a.slice(a.length - end));
  let gone = a
    .slice(start, a.length - end)
    .join("")
    .trim();
  let came = b
    .slice(start, b.length - end)
    .join("")
    .trim();
  if (gone === came) {
    // only whitespace changed ("ids.\n\nContext" → "ids.\n Context"): show it, escaped and quoted
    gone = JSON.stringify(a.slice(start, a.length - end).join(""));
    came = JSON.stringify(b.slice(start, b.length - end).join(""));
  }
  const head = clip((pre.length > CONTEXT_WORDS ? "… " : "") + pre.slice(-CONTEXT_WORDS).join(" "), "before");
  const tail = clip(post.slice(0, CONTEXT_WORDS).join(" ") + (post.length > CONTEXT_WORDS ? " …" : ""), "after");
  const esc = (s: string) => (markdown ? escapeMd(s) : s);
  const del = (t: string) => (markdown ? `~~${esc(t)}~~` : `[-${t}-]`);
  const ins = (t: string) => (markdown ? `**${esc(t)}**` : `{+${t}+}`);
  // several edits in one stretch ("a helpful tutor. Answer in one" → "a pirate tutor. Answer in one short"): each on its own
  const between = wordEdits(words(a.slice(start, a.length - end)), words(b.slice(start, b.length - end)));
  if (between) {
    const middle = between.map((p) => (p.op === "same" ? esc(p.text) : p.op === "gone" ? del(p.text) : ins(p.text))).join(" ");
    return [esc(head), middle, esc(tail)].filter(Boolean).join(" ").replace(/\n/g, " ");
  }
  const [lead, goneCut, cameCut, trail] = narrowed(gone, came);
  const change = [goneCut ? del(goneCut) : "", cameCut ? ins(cameCut) : ""].filter(Boolean).join(" ");
  return [esc(head), esc(lead) + change + esc(trail), esc(tail)].filter(Boolean).join(" ").replace(/\n/g, " ");
}

/** Word lists this long at most are compared word by word (`wordEdits`). */
const MAX_EDIT_WORDS = 400;

/**
 * The changed stretch of two texts word by word, when the two keep most of its words (a longest
 * common subsequence of at least two, and half the shorter side): unchanged words plain (a long run
 * of them cut to its ends), removed and added runs marked. Undefined otherwise, or when the stretch
 * is too long or holds a run of characters too long to read (base64): `narrowed` shows those.
 */
function wordEdits(gone: string[], came: string[]): { op: "same" | "gone" | "came"; text: string }[] | undefined {
  if (!gone.length || !came.length || gone.length + came.length > MAX_EDIT_WORDS) return undefined;
  if ([...gone, ...came].some((w) => w.length > MAX_CHANGED)) return undefined;
  const n = gone.length,
    m = came.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i][j] = gone[i] === came[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  // a word or two in common between two rewrites ("a") would cut them into pieces: only a stretch mostly kept is shown word by word
  if (lcs[0][0] < 2 || lcs[0][0] * 2 < Math.min(n, m)) return undefined;
  const ops: { op: "same" | "gone" | "came"; words: string[] }[] = [];
  const push = (op: "same" | "gone" | "came", w: string) => {
    const last = ops[ops.length - 1];
    if (last?.op === op) last.words.push(w);
    else ops.push({ op, words: [w] });
  };
  let i = 0,
    j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && gone[i] === came[j]) {
      push("same", gone[i]);
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      push("gone", gone[i++]); // a removed run before the run added in its place reads as a replacement: [-old-] {+new+}
    } else push("came", came[j++]);
  }
  return ops.map((o) => ({
    op: o.op,
    text:
      o.op === "same" && o.words.length > 2 * CONTEXT_WORDS
        ? [...o.words.slice(0, CONTEXT_WORDS), "…", ...o.words.slice(-CONTEXT_WORDS)].join(" ")
        : o.words.join(" "),
  }));
}

/** The longest changed run shown, and the characters of an unchanged word kept on each side of it. */
const MAX_CHANGED = 200;
const WORD_CONTEXT = 20;

/**
 * A long changed run (base64, a minified JSON, a word of thousands of characters) narrowed to the
 * characters that differ, with a few unchanged ones either side, each side cut to MAX_CHANGED: a
 * changed 2 MB image is a line, not two copies of it. A short run is shown whole.
 */
function narrowed(gone: string, came: string): [string, string, string, string] {
  if (gone.length <= MAX_CHANGED && came.length <= MAX_CHANGED) return ["", gone, came, ""];
  let p = 0;
  while (p < gone.length && p < came.length && gone[p] === came[p]) p++;
  let q = 0;
  while (q < gone.length - p && q < came.length - p && gone[gone.length - 1 - q] === came[came.length - 1 - q]) q++;
  const lead = p > WORD_CONTEXT ? "…" + gone.slice(p - WORD_CONTEXT, p) : gone.slice(0, p);
  const trail = q > WORD_CONTEXT ? gone.slice(gone.length - q, gone.length - q + WORD_CONTEXT) + "…" : gone.slice(gone.length - q);
  return [lead, cutRun(gone.slice(p, gone.length - q)), cutRun(came.slice(p, came.length - q)), trail];
}

function cutRun(s: string): string {
  return s.length <= MAX_CHANGED ? s : `${s.slice(0, MAX_CHANGED)}… (${s.length - MAX_CHANGED} more characters)`;
}

/** Context words are short; one of thousands of characters is cut at the side away from the change. */
function clip(s: string, side: "before" | "after"): string {
  if (s.length <= MAX_CHANGED) return s;
  return side === "before" ? "…" + s.slice(-MAX_CHANGED) : s.slice(0, MAX_CHANGED) + "…";
}

function escapeMd(s: string): string {
  return s.replace(/([\\`*_~[\]|<>#$])/g, "\\$1");
}

function cell(s: string): string {
  return escapeMd(s).replace(/\n/g, " ");
}

function code(s: string): string {
  return "`" + s.replace(/`/g, "'") + "`";
}

/** A fixture path's file name with its hash shortened, for the table. */
function short(file: string): string {
  return file.replace(/([0-9a-f]{12})[0-9a-f]{52}\.json$/, "$1….json");
}
