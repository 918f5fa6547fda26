import { Injectable } from '@nestjs/common';
import { AppConfig } from '@calendar/shared/config';

/** The configured languages (SPEC §7) and the rule that picks the language of a request (SPEC §2.3). */
@Injectable()
export class I18nService {
  constructor(private readonly config: AppConfig) {}

  get languages(): readonly string[] {
    return this.config.languages;
  }

  get defaultLanguage(): string {
    return this.config.defaultLanguage;
  }

  isSupported(language: unknown): language is string {
    return typeof language === 'string' && this.config.languages.includes(language.trim().toLowerCase());
  }

  /** `translation_language` when valid, else the URL's language base, else DEFAULT_LANGUAGE. */
  resolve(parameter: unknown, urlLanguage: string | undefined): string {
    if (this.isSupported(parameter)) return parameter.trim().toLowerCase();
    if (urlLanguage && this.isSupported(urlLanguage)) return urlLanguage;
    return this.config.defaultLanguage;
  }
}
