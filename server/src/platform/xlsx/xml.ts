import { Code } from '@coldwatch/contract';
import { AppError } from '../http/errors.js';

/**
 * A streaming tokenizer for the XML parts of an xlsx, fed the bytes as they inflate. A general
 * SAX parser (saxes, under exceljs) keeps a text run or a tag whole in memory until it ends, so a
 * sheet of one endless run of spaces costs as much memory as it inflates to; here text is kept
 * only while the reader asks for it (`capture`) and up to a bound, and markup up to another, so
 * memory stays flat whatever the part holds. DTDs are refused: OOXML parts never carry one, and
 * refusing them is what rules out entity expansion ("billion laughs").
 */

/** Excel's own limit on the characters of one cell. */
export const MAX_CELL_CHARS = 32_767;
/** A captured text run in UTF-8 (at most 4 bytes a character; entities only shrink it). */
const MAX_TEXT_BYTES = MAX_CELL_CHARS * 4;
/** One tag, comment or CDATA section; real SpreadsheetML tags are a few hundred bytes. */
const MAX_MARKUP_BYTES = 256 * 1024;

export interface XmlHandler {
  /** `local` is the element's name without its namespace prefix; read attributes with `scanner.attr()` meanwhile. */
  open(local: string, selfClosing: boolean): void;
  close(local: string): void;
  /** Text (entities decoded), delivered only while `scanner.capture` is on. */
  text?(text: string): void;
}

export const damaged = () => new AppError(Code.PARAM_ERROR, 'errors.xlsx.damaged', 400);
export const cellTooLong = () => new AppError(Code.PARAM_ERROR, 'errors.xlsx.cellTooLong', 400, undefined, { max: MAX_CELL_CHARS });

const LT = 0x3c;
const GT = 0x3e;
const CDATA = Buffer.from('<![CDATA[');

export class XmlScanner {
  /** While on, text between tags is handed to the handler (and held until the next tag, within MAX_TEXT_BYTES). */
  capture = false;
  private pending: Buffer | null = null;
  /** The captured text run so far: where it lies in the current bytes, and what earlier chunks held of it. */
  private textIn: Buffer | null = null;
  private textFrom = 0;
  private textTo = 0;
  private textBefore: Buffer[] = [];
  private textBytes = 0;
  /** The attribute bytes of the element being opened, parsed only if asked for. */
  private tagBytes: Buffer | null = null;
  private tagFrom = 0;
  private tagTo = 0;

  private readonly handler: XmlHandler;

  /** `make` builds the handler with this scanner at hand (for `attr` and `capture`). */
  constructor(make: (scanner: XmlScanner) => XmlHandler) {
    this.handler = make(this);
  }

  write(chunk: Buffer): void {
    const b = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    let i = 0;
    while (i < b.length) {
      const lt = b.indexOf(LT, i);
      const end = lt < 0 ? b.length : lt;
      if (this.capture && end > i) this.keepText(b, i, end);
      if (lt < 0) {
        this.holdText();
        return;
      }
      const after = markupEnd(b, lt);
      if (after < 0) {
        if (b.length - lt > MAX_MARKUP_BYTES) throw damaged();
        this.holdText();
        this.pending = Buffer.from(b.subarray(lt));
        return;
      }
      this.markup(b, lt, after);
      i = after;
    }
  }

  /** The part ended: markup left open means it was cut short. */
  end(): void {
    if (this.pending) throw damaged();
    this.flushText();
  }

  /** An attribute of the element being opened, by its name without prefix (`r:id` answers to 'id'). */
  attr(local: string): string | undefined {
    const b = this.tagBytes;
    if (!b) return undefined;
    // A scan of the bytes rather than a regular expression: this runs for every cell of a sheet.
    let i = this.tagFrom;
    const to = this.tagTo;
    while (i < to) {
      while (i < to && isSpace(b[i])) i++;
      const nameFrom = i;
      while (i < to && b[i] !== 0x3d /* = */ && !isSpace(b[i])) i++;
      const nameTo = i;
      while (i < to && (isSpace(b[i]) || b[i] === 0x3d)) i++;
      const quote = b[i];
      if (quote !== 0x22 && quote !== 0x27) return undefined; // not well-formed: no attributes to trust
      const close = b.indexOf(quote, i + 1);
      if (close < 0 || close >= to) return undefined;
      if (localNameIs(b, nameFrom, nameTo, local)) return decodeEntities(b.toString('utf8', i + 1, close));
      i = close + 1;
    }
    return undefined;
  }

  /** Element names as strings, each made once: a sheet repeats the same few a million times. */
  private readonly names = new Map<number, string>();

  private nameOf(b: Buffer, from: number, to: number): string {
    let hash = to - from;
    for (let k = from; k < to; k++) hash = (hash * 31 + b[k]) | 0;
    const known = this.names.get(hash);
    if (known !== undefined && localNameIs(b, from, to, known)) return known;
    const name = b.toString('latin1', from, to);
    if (this.names.size < 256) this.names.set(hash, name);
    return name;
  }

  private keepText(b: Buffer, from: number, to: number) {
    this.textBytes += to - from;
    if (this.textBytes > MAX_TEXT_BYTES) throw cellTooLong();
    // Most runs are one piece in one chunk: kept as offsets, decoded straight from the chunk.
    if (this.textIn) this.holdText();
    this.textIn = b;
    this.textFrom = from;
    this.textTo = to;
  }

  /** The chunk is about to go: a run that continues past it keeps its bytes. */
  private holdText() {
    if (!this.textIn) return;
    this.textBefore.push(Buffer.from(this.textIn.subarray(this.textFrom, this.textTo)));
    this.textIn = null;
  }

  private flushText() {
    if (!this.textIn && !this.textBefore.length) return;
    let s: string;
    if (!this.textBefore.length) s = this.textIn!.toString('utf8', this.textFrom, this.textTo);
    else {
      this.holdText();
      s = Buffer.concat(this.textBefore).toString('utf8');
      this.textBefore = [];
    }
    this.textIn = null;
    this.textBytes = 0;
    this.handler.text?.(decodeEntities(s));
  }

  private markup(b: Buffer, start: number, after: number) {
    const next = b[start + 1];
    if (next === 0x21 /* ! */) {
      if (b[start + 2] === 0x5b /* [ */) {
        // CDATA is text taken literally: entity decoding must not touch it.
        if (this.capture) {
          this.flushText();
          const body = b.subarray(start + CDATA.length, after - 3);
          if (body.length > MAX_TEXT_BYTES) throw cellTooLong();
          this.handler.text?.(body.toString('utf8'));
        }
      }
      return; // a comment
    }
    if (next === 0x3f /* ? */) return; // the XML declaration, a processing instruction
    this.flushText();
    const closing = next === 0x2f; /* / */
    let n = start + (closing ? 2 : 1);
    let localStart = n;
    for (; n < after && !isNameEnd(b[n]); n++) if (b[n] === 0x3a /* : */) localStart = n + 1;
    const local = this.nameOf(b, localStart, n);
    if (closing) return this.handler.close(local);
    const selfClosing = b[after - 2] === 0x2f;
    this.tagBytes = b;
    this.tagFrom = n;
    this.tagTo = after - (selfClosing ? 2 : 1);
    this.handler.open(local, selfClosing);
    this.tagBytes = null;
    if (selfClosing) this.handler.close(local);
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** Whether b[from, to), without a prefix, is `local`. */
function localNameIs(b: Buffer, from: number, to: number, local: string): boolean {
  for (let k = from; k < to; k++) if (b[k] === 0x3a /* : */) from = k + 1;
  if (to - from !== local.length) return false;
  for (let k = 0; k < local.length; k++) if (b[from + k] !== local.charCodeAt(k)) return false;
  return true;
}

const isNameEnd = (c: number) => isSpace(c) || c === 0x2f || c === GT;

/** Where the markup opened at `start` ends (the index after its '>'), or -1 when the bytes so far do not reach it. */
function markupEnd(b: Buffer, start: number): number {
  const next = b[start + 1];
  if (next === undefined) return -1;
  if (next === 0x3f) return after(b, '?>', start + 2);
  if (next === 0x21) {
    if (b.length - start < 4) return -1;
    if (b[start + 2] === 0x2d && b[start + 3] === 0x2d) return after(b, '-->', start + 4);
    if (b.length - start < CDATA.length) return -1;
    if (b.subarray(start, start + CDATA.length).equals(CDATA)) return after(b, ']]>', start + CDATA.length);
    throw damaged(); // <!DOCTYPE …> and its entities
  }
  // A tag: the first '>' outside a quoted attribute value.
  let quote = 0;
  for (let i = start + 1; i < b.length; i++) {
    const c = b[i];
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === GT) return i + 1;
  }
  return -1;
}

function after(b: Buffer, terminator: string, from: number): number {
  const at = b.indexOf(terminator, from, 'latin1');
  return at < 0 ? -1 : at + terminator.length;
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/g, (whole, e: string) => {
    if (e[0] !== '#') return NAMED[e] ?? whole;
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
