/**
 * What the demo model finds in a message, by kind, in the order it appears: the values a person
 * reading the message would pick out for a tool's inputs.
 */
export interface MessageReading {
  text: string;
  /** Lower-cased content words, for matching a message to a tool's name and description. */
  words: Set<string>;
  paths: string[];
  zones: string[];
  amounts: number[];
  numbers: number[];
  names: string[];
  urls: string[];
  emails: string[];
  ids: string[];
  dates: string[];
  /** Text in quotes: what the user wants passed as it is. */
  quoted: string[];
}

/** Words that say nothing about which tool fits. */
const stopWords = new Set(
  (
    'a an and are as at be but by can could do does for from had has have how i if in into is it its me my no not of on ' +
    'or our please so than that the their them then there these they this to us was we what when where which who why ' +
    'will with would you your also just some any all get use make want need like tell let give one'
  ).split(' '),
);

/** Content words of `text`: lower case, at least three letters, without function words. */
export function contentWords(text: string): Set<string> {
  const words = text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word.length >= 3 && !stopWords.has(word));
  return new Set(words);
}

/** The stem a word is compared by: "files" and "file", "counts" and "count" are one word. */
export function stem(word: string): string {
  return word.replace(/(?:ies|es|s|ed|ing)$/, '').replace(/e$/, '') || word;
}

/** Whether two word sets share a word, compared by stem. */
export function sharesWord(left: Set<string>, right: Set<string>): boolean {
  const stems = new Set([...right].map(stem));
  return [...left].some((word) => stems.has(stem(word)));
}

const zoneIds = new Map<string, string>();
const zoneCities = new Map<string, string>();
for (const zone of [...Intl.supportedValuesOf('timeZone'), 'UTC']) {
  zoneIds.set(zone.toLowerCase(), zone);
  const parts = zone.split('/');
  // Cities of two-part zones only: deeper names (America/Indiana/Knox) and Antarctic stations read as common words.
  if (parts.length === 2 && parts[0] !== 'Antarctica' && parts[0] !== 'Etc')
    zoneCities.set(parts[1]!.replace(/_/g, ' ').toLowerCase(), zone);
}
/** Common words for zones that are not IANA cities. */
const zoneWords: Record<string, string> = {
  utc: 'UTC',
  gmt: 'UTC',
  'new york': 'America/New_York',
  'san francisco': 'America/Los_Angeles',
  california: 'America/Los_Angeles',
  pst: 'America/Los_Angeles',
  pdt: 'America/Los_Angeles',
  est: 'America/New_York',
  edt: 'America/New_York',
  cet: 'Europe/Paris',
  cest: 'Europe/Paris',
  bst: 'Europe/London',
  jst: 'Asia/Tokyo',
  ist: 'Asia/Kolkata',
  japan: 'Asia/Tokyo',
  france: 'Europe/Paris',
  germany: 'Europe/Berlin',
  spain: 'Europe/Madrid',
  italy: 'Europe/Rome',
  england: 'Europe/London',
  india: 'Asia/Kolkata',
  china: 'Asia/Shanghai',
  australia: 'Australia/Sydney',
  bombay: 'Asia/Kolkata',
  mumbai: 'Asia/Kolkata',
  delhi: 'Asia/Kolkata',
  beijing: 'Asia/Shanghai',
};

/** The IANA zone a token or phrase names, if any ("Europe/Paris", "Tokyo", "New York", "PST"). */
function zoneOf(phrase: string): string | undefined {
  const lower = phrase.toLowerCase();
  return zoneIds.get(lower) ?? zoneWords[lower] ?? zoneCities.get(lower);
}

const currency = String.raw`(?:eur|euros?|usd|dollars?|gbp|pounds?|chf|€|\$|£)`;
/** Currency words as they are written in a sentence, for case-sensitive patterns. */
const writtenCurrency = String.raw`(?:EUR|USD|GBP|CHF|euros?|dollars?|pounds?|€|\$|£)`;
const amountPatterns = [
  new RegExp(String.raw`[€$£]\s?(\d+(?:[.,]\d+)?)`, 'gi'),
  new RegExp(String.raw`(\d+(?:[.,]\d+)?)\s?${currency}(?![a-z])`, 'gi'),
  /\b(?:pay|amount(?: of)?|transfer|charge|refund)\s+(\d+(?:[.,]\d+)?)/gi,
];
/** Words that introduce the person or party an action is for. */
const recipientCue = String.raw`(?:[Tt]o|[Ff]or|[Pp]ay|[Gg]reet|[Hh]ello|[Hh]i|[Tt]hank|[Ii]nvite|[Ee]mail|[Cc]all|[Mm]essage)`;
// Not the start of a path or zone id: "Europe" of "Europe/Paris", "Notes" of "Notes.txt".
const properName = String.raw`[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)*(?![\w/\\]|\.\w)`;

/** Reads `text` for paths, zones, amounts, names and the other kinds a tool input can ask for. */
export function readMessage(text: string): MessageReading {
  const quoted = [...text.matchAll(/"([^"]+)"|“([^”]+)”|'([^']{2,})'(?!\w)/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? '',
  );
  const tokens = text.split(/\s+/).map((token) => token.replace(/^[("'`“]+|[)"'`”.,;:!?]+$/g, ''));
  const urls = tokens.filter((token) => /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(token));
  const emails = tokens.filter((token) => /^[^@\s/]+@[\w-]+(?:\.[\w-]+)+$/.test(token));
  const zones: string[] = [];
  const zoneTokens = new Set<string>();
  const words = text.split(/[^\p{L}/_]+/u).filter(Boolean);
  for (let index = 0; index < words.length; index++) {
    // Longest phrase first: "New York" before "York".
    for (const length of [3, 2, 1]) {
      const phrase = words.slice(index, index + length).join(' ');
      const isToken = length === 1 && phrase.includes('/');
      // A city or zone word counts when written as a name (capitalised) or as an id with a slash.
      if (!isToken && !/^[A-Z]/.test(phrase)) continue;
      const zone = zoneOf(phrase);
      if (zone === undefined) continue;
      if (!zones.includes(zone)) zones.push(zone);
      zoneTokens.add(phrase);
      index += length - 1;
      break;
    }
  }
  const paths = tokens.filter(
    (token) =>
      !urls.includes(token) &&
      !emails.includes(token) &&
      !zoneTokens.has(token) &&
      zoneOf(token) === undefined &&
      isPathLike(token),
  );
  const amounts = amountPatterns
    .flatMap((pattern) => [...text.matchAll(pattern)].map((match) => ({ at: match.index, value: match[1]! })))
    .sort((left, right) => left.at - right.at)
    .map((match) => Number(match.value.replace(',', '.')))
    .filter((value, index, all) => all.indexOf(value) === index);
  const taken = new Set([...paths, ...urls, ...emails, ...zoneTokens]);
  const numbers = tokens
    .filter((token) => !taken.has(token) && /^-?\d+(?:\.\d+)?$/.test(token))
    .map((token) => Number(token));
  const ids = tokens.filter(
    (token) => !taken.has(token) && /^#?[A-Za-z]*[-_#]?\d+[\w-]*$/.test(token) && !/^-?\d+(?:\.\d+)?$/.test(token),
  );
  const dates = [...text.matchAll(/\b\d{4}-\d{2}-\d{2}\b/g)].map((match) => match[0]);
  return {
    text,
    words: contentWords(text),
    paths,
    zones,
    amounts,
    numbers,
    names: namesIn(text, zoneTokens, taken),
    urls,
    emails,
    ids,
    dates,
    quoted,
  };
}

/** Tokens that look like paths but are words. */
const notPaths = new Set(
  'e.g i.e etc vs and/or either/or he/she s/he yes/no on/off read/write input/output true/false client/server'.split(
    ' ',
  ),
);

/** A file or folder path: has a slash between names, or a name with an extension ("notes.txt"). */
function isPathLike(token: string): boolean {
  if (/^[\d.,]+$/.test(token) || notPaths.has(token.toLowerCase())) return false;
  if (/^(?:~|\.{1,2})?[/\\]?[\w.-]+(?:[/\\][\w.-]+)+[/\\]?$/.test(token)) return /[A-Za-z]/.test(token);
  return /^[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,9}$/.test(token);
}

/**
 * People and parties named in the text: capitalised words after "to", "for", "pay" and the like,
 * else capitalised words that do not start a sentence and name nothing else.
 */
function namesIn(text: string, zoneTokens: Set<string>, taken: Set<string>): string[] {
  const names: string[] = [];
  // After "to" or "hello" a city name is a person's ("hello to Sydney"); elsewhere it is the place.
  const add = (name: string, cued: boolean) => {
    const clean = name.replace(/[.,;:!?]+$/, '').trim();
    const first = clean.split(/\s+/)[0] ?? '';
    if (new RegExp(String.raw`^${writtenCurrency}$`).test(clean)) return;
    if (clean === '' || taken.has(clean) || clean === 'I' || names.includes(clean)) return;
    if (!cued && (zoneTokens.has(clean) || zoneTokens.has(first) || zoneOf(clean) !== undefined)) return;
    names.push(clean);
  };
  const cued = new RegExp(
    String.raw`\b${recipientCue}\s+(?:\d+(?:[.,]\d+)?\s?(?:${writtenCurrency}\s+)?(?:to\s+)?)?(${properName})`,
    'g',
  );
  for (const match of text.matchAll(cued)) add(match[1]!, true);
  if (names.length > 0) return names;
  for (const match of text.matchAll(new RegExp(String.raw`(?<![.!?]\s|^)(?<=\s)(${properName})`, 'g')))
    add(match[1]!, false);
  return names;
}
