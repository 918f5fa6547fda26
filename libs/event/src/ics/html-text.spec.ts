import { htmlToPlainText } from './html-text';

describe('htmlToPlainText', () => {
  it('keeps paragraphs, lines and list items, decodes entities and collapses whitespace', () => {
    expect(htmlToPlainText('<p>Rock &amp; <b>roll</b>,\n  tonight.</p><p>Doors&nbsp;at 7<br>Bar open<br><br>Free</p>')).toBe('Rock & roll, tonight.\n\nDoors\u00a0at 7\nBar open\n\nFree');
    expect(htmlToPlainText('<ul><li>One</li><li>Two <em>items</em></li></ul><p>After</p>')).toBe('- One\n- Two items\n\nAfter');
    expect(htmlToPlainText('<h2>Title</h2>Loose text <span>and</span> more')).toBe('Title\n\nLoose text and more');
  });

  it('follows a link by its address unless the text is the address, and leaves images out', () => {
    expect(htmlToPlainText('<p>See <a href="https://a.test/x">the site</a> or <a href="https://b.test/">https://b.test/</a>.</p><img src="https://a.test/i.png" alt="poster">')).toBe(
      'See the site [https://a.test/x] or https://b.test/.',
    );
    expect(htmlToPlainText('')).toBe('');
    expect(htmlToPlainText('<pre>a  b\n  c</pre>')).toBe('a  b\n  c');
  });
});
