import { Parser } from 'htmlparser2';

/*
 * The plain text of a description for iCalendar's DESCRIPTION: the sanitised HTML the service stores, read with
 * htmlparser2 (the parser sanitize-html uses; entities decoded). Paragraph-like blocks are separated by a blank
 * line, line breaks and list items start a line, whitespace is collapsed as a browser would, images are left out,
 * and a link whose text is not its address is followed by the address in brackets.
 */

const BLOCKS = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'ul', 'ol', 'table', 'hr']);
const LINES = new Set(['li', 'tr', 'dt', 'dd']);

export function htmlToPlainText(html: string): string {
  if (html === '') return '';
  let text = '';
  /** Line breaks owed before the next text: 1 for a new line, 2 for a blank line. */
  let owed = 0;
  let space = false;
  let preformatted = 0;
  const links: { href: string; start: number }[] = [];
  const write = (chunk: string) => {
    if (chunk === '') return;
    if (text !== '' && owed > 0) text += '\n'.repeat(owed);
    else if (space && text !== '' && !/\s$/.test(text)) text += ' ';
    owed = 0;
    space = false;
    text += chunk;
  };
  const breakLine = (count: number) => {
    owed = Math.max(owed, count);
    space = false;
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (BLOCKS.has(name)) breakLine(2);
        else if (LINES.has(name)) breakLine(1);
        if (name === 'br') {
          // A break always makes a line, even a second one in a row.
          text += '\n';
          owed = 0;
          space = false;
        }
        if (name === 'li') write('- ');
        if (name === 'pre') preformatted += 1;
        if (name === 'a') links.push({ href: attributes['href'] ?? '', start: text.length });
      },
      ontext(chunk) {
        if (preformatted > 0) return write(chunk);
        // HTML collapses ASCII whitespace only: a no-break space stays.
        const collapsed = chunk.replace(/[ \t\n\r\f]+/g, ' ');
        if (collapsed.startsWith(' ')) space = true;
        const body = collapsed.replace(/^ | $/g, '');
        if (body !== '') write(body);
        if (collapsed.endsWith(' ') && body !== '') space = true;
      },
      onclosetag(name) {
        if (name === 'pre') preformatted -= 1;
        if (BLOCKS.has(name)) breakLine(2);
        else if (LINES.has(name)) breakLine(1);
        if (name === 'a') {
          const link = links.pop();
          if (link && link.href !== '' && text.slice(link.start).trim() !== link.href) {
            text += ` [${link.href}]`;
          }
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return text.trim();
}
