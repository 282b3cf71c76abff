import { describe, expect, it } from 'vitest';
import { MAX_CELL_CHARS, XmlScanner } from './xml.js';

/** The events of `xml` fed in pieces of `step` bytes, text captured inside <t> only. */
function events(xml: string | Buffer, step = Infinity): string[] {
  const out: string[] = [];
  const x = new XmlScanner((s) => ({
    open(local, selfClosing) {
      out.push(`<${local}${s.attr('id') !== undefined ? ` id=${s.attr('id')}` : ''}${selfClosing ? '/' : ''}>`);
      if (local === 't') s.capture = true;
    },
    close(local) {
      if (local === 't') s.capture = false;
      out.push(`</${local}>`);
    },
    text(t) {
      out.push(`"${t}"`);
    },
  }));
  const bytes = Buffer.from(xml);
  for (let i = 0; i < bytes.length; i += Math.min(step, bytes.length)) x.write(bytes.subarray(i, i + step));
  x.end();
  return out;
}

describe('XmlScanner', () => {
  const xml =
    '<?xml version="1.0"?><x:root xmlns:x="urn:x"><!-- a > comment --><a r:id="1 &amp; 2" other=\'say "hi" > bye\'/>' +
    '<t>冷链 &lt;5&#176;C&#x2103;</t><skip>not captured</skip><t><![CDATA[<raw> &amp;]]> and after</t></x:root>';

  it('gives the same events whole or split at every byte, multi-byte characters and entities included', () => {
    const whole = events(xml);
    expect(whole).toEqual([
      '<root>',
      '<a id=1 & 2/>',
      '</a>',
      '<t>',
      '"冷链 <5°C℃"',
      '</t>',
      '<skip>',
      '</skip>',
      '<t>',
      '"<raw> &amp;"',
      '" and after"',
      '</t>',
      '</root>',
    ]);
    expect(events(xml, 1)).toEqual(whole);
    expect(events(xml, 7)).toEqual(whole);
  });

  it('refuses a DTD (entity expansion), markup cut short and captured text longer than a cell may hold', () => {
    const refused = (f: () => unknown) => expect(f).toThrow(expect.objectContaining({ code: 400, httpStatus: 400 }));
    refused(() => events('<!DOCTYPE r [<!ENTITY a "aaaa">]><r>&a;</r>'));
    refused(() => events('<r><t>unfinished</t><c r="A1'));
    expect(() => events(`<t>${'x'.repeat(MAX_CELL_CHARS * 4 + 1)}</t>`, 65536)).toThrow(expect.objectContaining({ msgKey: 'errors.xlsx.cellTooLong' }));
    // Text that is not captured is skipped, however long.
    expect(events(`<r>${' '.repeat(10_000_000)}</r>`, 65536)).toEqual(['<r>', '</r>']);
  });
});
