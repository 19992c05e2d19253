/**
 * Prometheus's text exposition format (0.0.4), read strictly: every sample belongs to a family
 * announced by `# HELP` and `# TYPE`, names and label names are valid, label values are quoted and
 * unescaped, values are numbers (or ±Inf / NaN), a histogram has ascending `le` buckets ending in
 * `+Inf` whose count equals `_count`. Anything else throws, naming the line.
 */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const SUFFIXES: Record<Family["type"], string[]> = {
  counter: [""],
  gauge: [""],
  untyped: [""],
  histogram: ["_bucket", "_sum", "_count"],
  summary: ["", "_sum", "_count"],
};

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const help = new Map<string, string>();
  text.split("\n").forEach((line, i) => {
    const where = `line ${i + 1}: ${line}`;
    if (line === "") return;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta;
      if (!NAME.test(name)) throw new Error(`bad metric name, ${where}`);
      if (kind === "HELP") help.set(name, rest.replace(/\\n/g, "\n").replace(/\\\\/g, "\\"));
      else {
        if (!(rest in SUFFIXES)) throw new Error(`unknown type, ${where}`);
        if (families.has(name)) throw new Error(`second TYPE, ${where}`);
        families.set(name, { name, help: help.get(name) ?? "", type: rest as Family["type"], samples: [] });
      }
      return;
    }
    if (line.startsWith("#")) return;
    const sample = readSample(line, where);
    const family = [...families.values()].find((f) => SUFFIXES[f.type].some((s) => `${f.name}${s}` === sample.name));
    if (!family) throw new Error(`sample of no announced family, ${where}`);
    family.samples.push(sample);
  });
  for (const f of families.values()) if (f.type === "histogram") checkHistogram(f);
  return families;
}

function readSample(line: string, where: string): Sample {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)( -?\d+)?$/.exec(line);
  if (!m) throw new Error(`not a sample, ${where}`);
  const labels: Record<string, string> = {};
  let rest = m[3] ?? "";
  while (rest !== "") {
    const l = /^([^=]+)="((?:[^"\\]|\\.)*)"(,|$)/.exec(rest);
    if (!l || !LABEL.test(l[1])) throw new Error(`bad label, ${where}`);
    if (l[1] in labels) throw new Error(`label twice, ${where}`);
    labels[l[1]] = l[2].replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    rest = rest.slice(l[0].length);
  }
  const raw = m[4];
  const value = raw === "+Inf" ? Infinity : raw === "-Inf" ? -Infinity : raw === "NaN" ? NaN : Number(raw);
  if (!/^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]Inf|NaN)$/.test(raw)) throw new Error(`bad value, ${where}`);
  return { name: m[1], labels, value };
}

function checkHistogram(f: Family): void {
  const series = new Map<string, Sample[]>();
  for (const s of f.samples.filter((x) => x.name === `${f.name}_bucket`)) {
    const { le, ...rest } = s.labels;
    if (le === undefined) throw new Error(`${f.name}: a bucket without le`);
    const key = JSON.stringify(rest);
    series.set(key, [...(series.get(key) ?? []), s]);
  }
  for (const [key, buckets] of series) {
    const bounds = buckets.map((b) => (b.labels.le === "+Inf" ? Infinity : Number(b.labels.le)));
    if (bounds.at(-1) !== Infinity) throw new Error(`${f.name}${key}: no +Inf bucket`);
    bounds.forEach((b, i) => {
      if (i > 0 && !(b > bounds[i - 1])) throw new Error(`${f.name}${key}: buckets not ascending`);
      if (i > 0 && buckets[i].value < buckets[i - 1].value) throw new Error(`${f.name}${key}: bucket counts fall`);
    });
    const count = f.samples.find((s) => s.name === `${f.name}_count` && JSON.stringify(s.labels) === key);
    if (count?.value !== buckets.at(-1)!.value) throw new Error(`${f.name}${key}: _count is not the +Inf bucket`);
  }
}

/** One sample's value by its labels (all of them), or undefined. */
export function valueOf(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const f of families.values())
    for (const s of f.samples)
      if (s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === JSON.stringify(Object.entries(labels).sort())) return s.value;
  return undefined;
}
