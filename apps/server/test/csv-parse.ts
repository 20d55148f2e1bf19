/**
 * A strict RFC 4180 reader for the export tests, written apart from the writer under test: quoted fields
 * with doubled quotes, CRLF records. Throws on anything else, so a quoting mistake cannot pass unseen.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote < 0) throw new Error(`unterminated quoted field at ${i}`);
        field += text.slice(i, quote);
        i = quote + 1;
        if (text[i] !== '"') break;
        field += '"';
        i++;
      }
    } else {
      const end = text.slice(i).search(/,|\r\n/);
      field = end < 0 ? text.slice(i) : text.slice(i, i + end);
      if (/["\r\n]/.test(field)) throw new Error(`unquoted field with a quote or line break at ${i}`);
      i += field.length;
    }
    record.push(field);
    if (text[i] === ',') {
      i++;
    } else if (text.startsWith('\r\n', i)) {
      i += 2;
      records.push(record);
      record = [];
    } else if (i < text.length) {
      throw new Error(`expected , or CRLF at ${i}`);
    }
  }
  if (record.length) records.push(record);
  return records;
}
