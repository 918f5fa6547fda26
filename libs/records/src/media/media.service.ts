import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiException } from '@calendar/shared/http';
import { EntityManager, In, DataSource } from 'typeorm';
import { ImageResponse } from '../record.model';
import { imageExtension } from './image.param';
import { MediaEntity } from './media.entity';

/** The media registry shared by venues, organizers and events. */
@Injectable()
export class MediaService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The media id for an `image` value: a known id, or a URL registered the first time it is seen.
   * `null` clears the image. An unknown id is a 400 naming `image`.
   */
  async resolve(manager: EntityManager, value: number | string | null): Promise<number | null> {
    if (value === null) return null;
    const media = manager.getRepository(MediaEntity);
    if (typeof value === 'number') {
      if (!(await media.exists({ where: { id: value } }))) throw ApiException.invalidParams({ image: 'must be the id of a known image or an http(s) URL of an image' });
      return value;
    }
    const urlHash = createHash('sha256').update(value).digest('hex');
    const known = await media.findOne({ select: { id: true }, where: { urlHash } });
    if (known) return known.id;
    const created = media.create({ url: value, urlHash, extension: imageExtension(value) ?? '', width: null, height: null });
    await media.insert(created);
    return created.id;
  }

  /** Media records by id, for presenting a page of records in one query. */
  async byIds(ids: (number | null)[]): Promise<Map<number, MediaEntity>> {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
    if (wanted.length === 0) return new Map();
    const rows = await this.dataSource.getRepository(MediaEntity).find({ where: { id: In(wanted) } });
    return new Map(rows.map((row) => [row.id, row]));
  }
}

/** `false`, or the image object of SPEC §4.6. */
export function presentImage(media: MediaEntity | null | undefined): ImageResponse | false {
  if (!media) return false;
  return {
    id: media.id,
    url: media.url,
    extension: media.extension,
    ...(media.width !== null ? { width: media.width } : {}),
    ...(media.height !== null ? { height: media.height } : {}),
    sizes: {},
  };
}
