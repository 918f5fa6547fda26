import { ApiExtraModels } from '@nestjs/swagger';
import { arrayOf, BOOLEAN, Field, INTEGER, IntegerParam, nullable, ref, STRING, StringListParam, StringParam, URI, BooleanParam } from '@calendar/shared/http';
import { TYPE_PATTERNS } from './webhook-types';

/** `GET /webhooks`, `GET /webhooks/{id}/deliveries`: pages like every list (SPEC §3.3). */
export class ListWebhooksQueryDto {
  @IntegerParam({ min: 1, default: 1, description: 'The page of the collection to return' })
  page = 1;

  @IntegerParam({ min: 1, max: 100, default: 10, description: 'Items per page' })
  per_page = 10;
}

/** The fields of an endpoint (SPEC §17.1) but its address. */
class WebhookFieldsDto {
  @StringListParam({ values: TYPE_PATTERNS, description: 'The message types sent to it (`event.*` for every type of a kind); every type when empty or absent' })
  types?: string[];

  @StringParam({ maxLength: 1000, empty: 'empty-string', description: 'What the endpoint is for' })
  description?: string;

  @BooleanParam({ description: 'Whether messages are sent to it (default true); enabling it again clears why it was disabled' })
  enabled?: boolean;

}

export class CreateWebhookDto extends WebhookFieldsDto {
  @StringParam({ maxLength: 2000, required: true, description: 'Where messages are sent: an absolute http or https URL' })
  url: string;
}

export class UpdateWebhookDto extends WebhookFieldsDto {
  @StringParam({ maxLength: 2000, description: 'Where messages are sent: an absolute http or https URL' })
  url?: string;

  @BooleanParam({ description: 'true: a new secret, answered once; the old one also signs for 24 hours' })
  rotate_secret?: boolean;
}

export class WebhookResponse {
  @Field(INTEGER)
  id: number;

  @Field(URI)
  url: string;

  @Field({ ...arrayOf(STRING), description: 'The message types sent to it; empty for every type' })
  types: string[];

  @Field(STRING)
  description: string;

  @Field(BOOLEAN)
  enabled: boolean;

  @Field({ ...nullable({ type: 'string', enum: ['gone', 'failing', 'manual'] }), description: 'Why it is disabled: the receiver answered 410, every delivery failed for 5 days, or an administrator' })
  disabled_reason: 'gone' | 'failing' | 'manual' | null;

  @Field({ ...STRING, format: 'date-time' })
  created: string;

  @Field({ ...STRING, format: 'date-time' })
  modified: string;

  @Field(URI)
  rest_url: string;

  @Field({ ...STRING, description: 'The signing secret: only in the answer of a create and of a rotation' }, false)
  secret?: string;
}

export class AttemptResponse {
  @Field({ ...STRING, format: 'date-time' })
  at: string;

  @Field({ ...nullable(INTEGER), description: 'The receiver’s HTTP status, null when none came' })
  status: number | null;

  @Field(INTEGER)
  duration_ms: number;

  @Field(nullable(STRING))
  error: string | null;

  @Field({ ...nullable(STRING), description: 'The first KiB of the answer' })
  response: string | null;
}

export class DeliveryRecord {
  @Field(STRING)
  kind: string;

  @Field(INTEGER)
  id: number;
}

@ApiExtraModels(AttemptResponse, DeliveryRecord)
export class DeliveryResponse {
  @Field(INTEGER)
  id: number;

  @Field({ ...STRING, description: 'The `webhook-id` of the message, the same on every attempt' })
  message_id: string;

  @Field(STRING)
  type: string;

  @Field(ref(DeliveryRecord))
  record: DeliveryRecord;

  @Field({ type: 'string', enum: ['pending', 'delivered', 'failed'] })
  state: 'pending' | 'delivered' | 'failed';

  @Field({ ...nullable({ ...STRING, format: 'date-time' }), description: 'When the next attempt is due, while pending' })
  next_attempt_at: string | null;

  @Field({ ...STRING, format: 'date-time' })
  created: string;

  @Field(arrayOf(ref(AttemptResponse)))
  attempts: AttemptResponse[];
}
