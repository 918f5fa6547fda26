import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiException } from './api-exception';

function firstMessage(error: ValidationError): string {
  const messages = Object.values(error.constraints ?? {});
  // The parameter's own rule ("must be ...") is the most useful message when several constraints fail.
  return messages.find((message) => message !== 'required') ?? messages[0] ?? 'is invalid';
}

/** Turns class-validator failures into the two 400 envelopes of SPEC §3.1, naming every parameter (alphabetically). */
export function toParamsException(errors: ValidationError[]): ApiException {
  const sorted = [...errors].sort((a, b) => a.property.localeCompare(b.property));
  const missing = sorted.filter((error) => error.value === undefined && error.constraints?.['isDefined']).map((error) => error.property);
  if (missing.length > 0) return ApiException.missingParams(missing);
  const params: Record<string, string> = {};
  for (const error of sorted) params[error.property] = firstMessage(error);
  return ApiException.invalidParams(params);
}

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    validateCustomDecorators: false,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => toParamsException(errors),
  });
}
