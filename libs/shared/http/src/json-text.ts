import { randomBytes } from 'node:crypto';
/**
 * The JSON text of a value rendered ahead, placed into an answer as it is. Lists made of such items are written
 * by concatenation (`ListResult.toJson`), without serialising each item again; anything else that serialises one
 * gets the value back through `toJSON`.
 */
export class JsonText<T = unknown> {
  /** The type of the value the text encodes (for the compiler only). */
  declare readonly value?: T;

  /**
   * `body`: the text; its UTF-8 bytes, for an answer written as bytes (`listBytes`); or texts and bytes that make it
   * one after the other (`JsonTemplate.parts`), which an answer writes as they are, never joined into one text first.
   */
  constructor(readonly body: string | Buffer | readonly JsonPart[]) {}

  get text(): string {
    return typeof this.body === 'string' ? this.body : Buffer.isBuffer(this.body) ? this.body.toString('utf8') : joinParts(this.body);
  }

  /** The text or its bytes, as kept (a text in parts joined): one part of another answer. */
  get part(): JsonPart {
    return typeof this.body === 'string' || Buffer.isBuffer(this.body) ? this.body : joinParts(this.body);
  }

  toJSON(): T {
    return JSON.parse(this.text) as T;
  }
}

/** The exact text of an answer: a rendered text as it is, anything else as `JSON.stringify` gives it. */
export function answerText(answer: unknown): string {
  return answer instanceof JsonText ? answer.text : JSON.stringify(answer);
}

/** The exact body an answer is sent as: `answerText`, or the bytes of an answer written as bytes or in parts. */
export function answerBody(answer: unknown): string | Buffer {
  if (!(answer instanceof JsonText)) return JSON.stringify(answer);
  return typeof answer.body === 'string' || Buffer.isBuffer(answer.body) ? answer.body : jsonBytes(answer.body);
}

/**
 * The bytes of `{"<key>":[...items],...rest}`: items rendered ahead (JsonText) placed as they are, others as
 * `JSON.stringify` gives them; a list's or a sync page's body.
 */
export function listBytes(key: string, items: readonly unknown[], rest: Record<string, unknown>): Buffer {
  const parts: JsonPart[] = [`{${JSON.stringify(key)}:[`];
  items.forEach((item, index) => {
    if (index > 0) parts.push(',');
    // An item in parts (an event filled into its kept template) is written part by part: joining them would make a
    // text per item, each a copy the collector then frees.
    if (item instanceof JsonText && typeof item.body !== 'string' && !Buffer.isBuffer(item.body)) parts.push(...item.body);
    else parts.push(item instanceof JsonText ? item.part : JSON.stringify(item));
  });
  const members = JSON.stringify(rest);
  parts.push(members === '{}' ? ']}' : `],${members.slice(1)}`);
  return jsonBytes(parts);
}

/**
 * The UTF-8 bytes of texts written one after the other, into one buffer. A large answer (a sync page of 1,000
 * events, megabytes) is written so rather than joined into one text first: that text, and the flat copy encoding it
 * would make, are objects of megabytes on the heap, each one more collection of the old generation.
 */
function jsonBytes(parts: readonly JsonPart[]): Buffer {
  let size = 0;
  for (const part of parts) size += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  const bytes = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const part of parts) at += typeof part === 'string' ? bytes.write(part, at) : part.copy(bytes, at);
  return bytes;
}

/**
 * A piece of JSON text: a string, or its UTF-8 bytes (the kept renderings of venues and organizers are kept as bytes,
 * and are copied into an answer's bytes as they are, not decoded into a string per event shown).
 */
export type JsonPart = string | Buffer;

/** The text of parts written one after the other. */
function joinParts(parts: readonly JsonPart[]): string {
  let text = '';
  for (const part of parts) text += typeof part === 'string' ? part : part.toString('utf8');
  return text;
}

/** What marks an open member while a template is made: a control character and a nonce, as a string and in JSON. */
const MARK = `\u0001${randomBytes(8).toString('hex')}\u0001`;
const MARK_JSON = JSON.stringify(MARK).slice(1, -1);

/**
 * The JSON text of an object with some top-level members left open: rendered once, completed per answer with the
 * JSON text of each open member. The text equals `JSON.stringify` of the object with those members set.
 */
export class JsonTemplate<K extends string = string> {
  private constructor(
    /** Text and member names in turn: text, name, text, ..., text. */
    private readonly pieces: string[],
  ) {}

  static of<K extends string>(value: object, open: readonly K[]): JsonTemplate<K> {
    // One JSON.stringify of the object with each open member set to a marker no member's text can hold (a
    // control character and a nonce of this process), then the text cut at the markers: one native call instead of
    // one per member.
    const copy: Record<string, unknown> = { ...value };
    const opened: { key: K; marker: string; at: number }[] = [];
    // Only the open members are looked at (a rendering has some forty members, and a few open).
    for (const key of open) {
      const member = copy[key];
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol' || !Object.prototype.hasOwnProperty.call(copy, key) || opened.some((other) => other.key === key)) continue;
      copy[key] = `${MARK}${key}${MARK}`;
      // The marker as JSON writes it, without its opening quote: a name with a quote, a backslash or a control
      // character is escaped in it.
      opened.push({ key, marker: `${MARK_JSON}${JSON.stringify(key).slice(1, -1)}${MARK_JSON}"`, at: -1 });
    }
    const text = JSON.stringify(copy);
    // Found by their first character, the escaped control character, which a JSON text holds rarely (a quote, which
    // opens them, begins every name); in the order the text holds them.
    for (const member of opened) member.at = text.indexOf(member.marker) - 1;
    opened.sort((a, b) => a.at - b.at);
    const pieces: string[] = [];
    let from = 0;
    for (const { key, marker, at } of opened) {
      // Slices of the one flat text: together they hold about that text, and no tree of small strings.
      pieces.push(text.slice(from, at), key);
      from = at + 1 + marker.length;
    }
    pieces.push(text.slice(from));
    return new JsonTemplate<K>(pieces);
  }

  /** Approximate size in memory, for bounded caches. */
  get size(): number {
    let size = 0;
    for (const piece of this.pieces) size += piece.length;
    return size;
  }

  /** The text with each open member's JSON text filled in. */
  fill(members: Record<K, JsonPart | readonly JsonPart[]>): string {
    return joinParts(this.parts(members));
  }

  /**
   * The texts and bytes that make `fill`'s text one after the other: the kept pieces and the members' in turn (a
   * member given in parts, its parts).
   */
  parts(members: Record<K, JsonPart | readonly JsonPart[]>): JsonPart[] {
    const parts: JsonPart[] = [];
    for (let index = 0; index < this.pieces.length; index += 1) {
      const piece = this.pieces[index];
      if (index % 2 === 0) parts.push(piece);
      else {
        const member = members[piece as K];
        if (Array.isArray(member)) for (const part of member as readonly JsonPart[]) parts.push(part);
        else parts.push(member as JsonPart);
      }
    }
    return parts;
  }
}

/**
 * An answer that is text of another media type (an iCalendar feed): cached and validated like JSON answers, sent
 * with its own Content-Type and headers.
 */
export class TextAnswer {
  constructor(
    readonly text: string,
    readonly contentType: string,
    readonly headers: Record<string, string> = {},
  ) {}
}
