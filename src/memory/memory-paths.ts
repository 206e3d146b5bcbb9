/** The directory every memory path lives under. */
export const memoryRoot = '/memories';

/** Longest memory path accepted, in characters. */
export const maxMemoryPathLength = 512;

/** A path the model gave, normalised under `/memories`, or the error result that refuses it. */
export type MemoryPathCheck = { path: string } | { error: string };

/**
 * Normalises a path under `/memories` (duplicate and trailing slashes, `.` segments) and refuses
 * anything that could leave it: `..` segments, backslashes, percent-encoded separators or dots,
 * NUL and other control characters, and paths longer than {@link maxMemoryPathLength}.
 */
export function checkMemoryPath(raw: unknown): MemoryPathCheck {
  if (typeof raw !== 'string' || raw.length === 0) {
    return {
      error: `Error: A memory path must be a non-empty string under ${memoryRoot}, e.g. ${memoryRoot}/notes.md.`,
    };
  }
  const shown = JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}...` : raw);
  if (raw.length > maxMemoryPathLength) {
    return {
      error: `Error: The path ${shown} is ${raw.length} characters long; memory paths are at most ${maxMemoryPathLength}. Use a shorter name.`,
    };
  }
  if (/[\u0000-\u001f\u007f]/.test(raw)) {
    return { error: `Error: The path ${shown} contains a control character (such as NUL). Use plain file names.` };
  }
  if (raw.includes('\\') || /%(2e|2f|5c|00)/i.test(raw)) {
    return {
      error: `Error: The path ${shown} contains a backslash or an encoded separator. Use plain / separated names under ${memoryRoot}.`,
    };
  }
  const segments = raw.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) {
    return {
      error: `Error: The path ${shown} uses '..'. Memory paths stay under ${memoryRoot}; name the file directly.`,
    };
  }
  if (!raw.startsWith('/') || segments[0] !== memoryRoot.slice(1)) {
    return {
      error: `Error: The path ${shown} is outside ${memoryRoot}. Every memory path starts with ${memoryRoot}/.`,
    };
  }
  return { path: `/${segments.join('/')}` };
}
