import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TermTranslationEntity } from './entities/term-translation.entity';
import { TermEntity } from './entities/term.entity';
import { CategoriesController, TagsController } from './term.controllers';
import { TermLinkRegistry } from './term-links';
import { TermRepository } from './term.repository';
import { TermService } from './term.service';

@Module({
  imports: [TypeOrmModule.forFeature([TermEntity, TermTranslationEntity])],
  controllers: [CategoriesController, TagsController],
  providers: [TermRepository, TermService, TermLinkRegistry],
  exports: [TermService, TermRepository, TermLinkRegistry],
})
export class TaxonomyModule {}
