import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { registerDecorator, ValidateIf, ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { AppConfig } from '@calendar/shared/config';
import { ACCEPTS } from './validation';

/** Checks a language against the configured list; the list comes from configuration, through Nest's container. */
@ValidatorConstraint({ name: 'configuredLanguage' })
@Injectable()
export class ConfiguredLanguageConstraint implements ValidatorConstraintInterface {
  constructor(private readonly config: AppConfig) {}

  validate(value: unknown): boolean {
    return typeof value === 'string' && this.config.languages.includes(value);
  }

  defaultMessage(_args: ValidationArguments): string {
    return `must be one of: ${this.config.languages.join(', ')}`;
  }
}

/** Stands for "one of the configured languages" in a parameter's accepted forms until the document is served. */
export const CONFIGURED_LANGUAGE = 'configured-language';

export function LanguageParam(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    ApiProperty({
      type: 'string',
      required: false,
      description: 'Language to read and write texts in; one of the configured languages, in any case',
      // The configured languages are known when the document is served.
      [ACCEPTS]: CONFIGURED_LANGUAGE,
    } as never)(target, propertyName);
    Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))(target, propertyName);
    registerDecorator({
      target: target.constructor,
      propertyName: String(propertyName),
      validator: ConfiguredLanguageConstraint,
      constraints: [],
      options: {},
    });
    ValidateIf((_object, value) => value !== undefined)(target, propertyName);
  };
}

/** Every endpoint takes `translation_language` (SPEC §2.3); every parameter class extends this one. */
export class LocalizedDto {
  @LanguageParam()
  translation_language?: string;
}
