import type { Caller, Role } from '@calendar/shared/http';
import { imageExtension } from './media/image.param';
import { presentImage } from './media/media.service';
import { MediaEntity } from './media/media.entity';
import { mayModify, readAccess } from './record-access';
import { plainText } from './record.mapper';
import { statusForWrite } from './record-status';

const caller = (role: Role, id = 7): Caller => ({ id, login: role, role });

describe('statusForWrite (SPEC §4.2, §8, §11.18)', () => {
  it('defaults to publish for publishers and draft for contributors', () => {
    expect(statusForWrite(undefined, caller('author'))).toBe('publish');
    expect(statusForWrite(undefined, caller('contributor'))).toBe('draft');
  });

  it('turns publish, future and private into pending for contributors', () => {
    for (const status of ['publish', 'future', 'private'] as const) expect(statusForWrite(status, caller('contributor'))).toBe('pending');
    expect(statusForWrite('draft', caller('contributor'))).toBe('draft');
    expect(statusForWrite('future', caller('editor'))).toBe('future');
  });

  it('keeps the current status when none is asked for', () => {
    expect(statusForWrite(undefined, caller('contributor'), 'publish')).toBe('publish');
  });
});

describe('record access (SPEC §8)', () => {
  const owned = { authorId: 7 };
  it('lets everyone read published records and only owners and editors the rest', () => {
    expect(readAccess({ ...owned, status: 'publish' }, null)).toBe('ok');
    expect(readAccess({ ...owned, status: 'draft' }, null)).toBe('hidden');
    expect(readAccess({ ...owned, status: 'trash' }, caller('author', 8))).toBe('trashed');
    expect(readAccess({ ...owned, status: 'trash' }, caller('contributor'))).toBe('ok');
    expect(readAccess({ ...owned, status: 'private' }, caller('editor', 9))).toBe('ok');
  });

  it('lets contributors modify their own records only while unpublished', () => {
    expect(mayModify({ ...owned, status: 'draft' }, caller('contributor'))).toBe(true);
    expect(mayModify({ ...owned, status: 'publish' }, caller('contributor'))).toBe(false);
    expect(mayModify({ ...owned, status: 'publish' }, caller('author'))).toBe(true);
    expect(mayModify({ ...owned, status: 'draft' }, caller('author', 8))).toBe(false);
    expect(mayModify({ ...owned, status: 'publish' }, caller('administrator', 1))).toBe(true);
    expect(mayModify({ ...owned, status: 'draft' }, null)).toBe(false);
  });
});

describe('images (SPEC §4.6)', () => {
  it('accepts the image extensions only', () => {
    expect(imageExtension('https://x.example/a/b.JPEG?size=2')).toBe('jpeg');
    expect(imageExtension('https://x.example/a.svg')).toBe('svg');
    expect(imageExtension('https://x.example/a.pdf')).toBeNull();
    expect(imageExtension('https://x.example/jpg')).toBeNull();
  });

  it('presents false or the image object', () => {
    expect(presentImage(null)).toBe(false);
    const media = Object.assign(new MediaEntity(), { id: 3, url: 'https://x.example/a.png', extension: 'png', width: 640, height: null });
    expect(presentImage(media)).toEqual({ id: 3, url: 'https://x.example/a.png', extension: 'png', width: 640, sizes: {} });
  });
});

describe('plainText', () => {
  it('drops markup and decodes the common entities', () => {
    expect(plainText('<p>Rock &amp; <b>roll</b>.</p><p>Next</p>')).toBe('Rock & roll. Next');
  });
});
