/**
 * The JSON text of a value rendered ahead, placed into an answer as it is. Lists made of such items are written
 * by concatenation (`ListResult.toJson`), without serialising each item again; anything else that serialises one
 * gets the value back through `toJSON`.
 */
export class JsonText<T = unknown> {
  /** The type of the value the text encodes (for the compiler only). */
  declare readonly value?: T;

  constructor(readonly text: string) {}

  toJSON(): T {
    return JSON.parse(this.text) as T;
  }
}

const texts = new WeakMap<object, string>();

/**
 * `JSON.stringify` of an object that is not changed after it is made, computed once per object: the records kept
 * for embedding (FragmentCache) are serialised once per version, not once per answer they appear in.
 */
export function jsonOf(value: object): string {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

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
    // Pieces are joined from arrays, not grown with `+=`: a kept template then holds flat strings, not the trees
    // of small strings that repeated concatenation leaves behind (several times the memory).
    const pieces: string[] = [];
    let text: string[] = ['{'];
    let first = true;
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      text.push(first ? '' : ',', JSON.stringify(key), ':');
      first = false;
      if ((open as readonly string[]).includes(key)) {
        pieces.push(text.join(''), key);
        text = [];
      } else {
        text.push(JSON.stringify(member));
      }
    }
    text.push('}');
    pieces.push(text.join(''));
    return new JsonTemplate<K>(pieces);
  }

  /** Approximate size in memory, for bounded caches. */
  get size(): number {
    let size = 0;
    for (const piece of this.pieces) size += piece.length;
    return size;
  }

  /** The text with each open member's JSON text filled in. */
  fill(members: Record<K, string>): string {
    let text = this.pieces[0];
    for (let index = 1; index < this.pieces.length; index += 2) text += members[this.pieces[index] as K] + this.pieces[index + 1];
    return text;
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
