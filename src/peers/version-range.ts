/**
 * The small part of npm's semver ranges that package.json's peer ranges use: `^x.y.z`, `~x.y.z`,
 * comparators (`>=`, `>`, `<=`, `<`, `=` or a bare version) joined by spaces, and `||` between sets,
 * each with a whole x.y.z version.
 * A pre-release version satisfies a range only when a comparator names the same x.y.z, as in npm.
 */
export function satisfiesRange(version: string, range: string): boolean {
  const parsed = parseVersion(version);
  if (!parsed) return false;
  return range.split('||').some((set) => {
    const comparators = set.trim().split(/\s+/).filter(Boolean).flatMap(expand);
    if (comparators.length === 0) return true;
    if (parsed.pre && !comparators.some(({ bound }) => sameRelease(bound, parsed))) return false;
    return comparators.every(({ op, bound }) => holds(compare(parsed, bound), op));
  });
}

interface Version {
  major: number;
  minor: number;
  patch: number;
  pre: string;
}

type Operator = '>=' | '>' | '<=' | '<' | '=';

function parseVersion(text: string): Version | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), pre: match[4] ?? '' };
}

/** One comparator as the plain ones it stands for: `^1.2.3` is `>=1.2.3 <2.0.0-0`. */
function expand(token: string): { op: Operator; bound: Version }[] {
  const match = /^(\^|~|>=|<=|>|<|=)?(.+)$/.exec(token);
  const bound = parseVersion(match?.[2] ?? '');
  if (!match || !bound) throw new Error(`Unsupported version range comparator '${token}'.`);
  const kind = match[1] ?? '=';
  if (kind === '^') {
    const upper =
      bound.major > 0
        ? { major: bound.major + 1, minor: 0, patch: 0 }
        : bound.minor > 0
          ? { major: 0, minor: bound.minor + 1, patch: 0 }
          : { major: 0, minor: 0, patch: bound.patch + 1 };
    return [
      { op: '>=', bound },
      { op: '<', bound: { ...upper, pre: '0' } },
    ];
  }
  if (kind === '~') {
    return [
      { op: '>=', bound },
      { op: '<', bound: { major: bound.major, minor: bound.minor + 1, patch: 0, pre: '0' } },
    ];
  }
  return [{ op: kind as Operator, bound }];
}

function sameRelease(a: Version, b: Version): boolean {
  return a.major === b.major && a.minor === b.minor && a.patch === b.patch && a.pre !== '';
}

function compare(a: Version, b: Version): number {
  for (const key of ['major', 'minor', 'patch'] as const) if (a[key] !== b[key]) return a[key] - b[key];
  if (a.pre === b.pre) return 0;
  if (!a.pre) return 1;
  if (!b.pre) return -1;
  const left = a.pre.split('.');
  const right = b.pre.split('.');
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const x = left[index];
    const y = right[index];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    return numeric ? Number(x) - Number(y) : x < y ? -1 : 1;
  }
  return 0;
}

function holds(order: number, op: Operator): boolean {
  switch (op) {
    case '>=':
      return order >= 0;
    case '>':
      return order > 0;
    case '<=':
      return order <= 0;
    case '<':
      return order < 0;
    default:
      return order === 0;
  }
}
