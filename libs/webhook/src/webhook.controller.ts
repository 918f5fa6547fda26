import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Context, RequestContext } from '@calendar/i18n';
import { RequiresLogin } from '@calendar/shared/auth';
import { ApiAnswers, ID_SEGMENT, NAMESPACE } from '@calendar/shared/http';
import { CreateWebhookDto, DeliveryResponse, ListWebhooksQueryDto, UpdateWebhookDto, WebhookResponse } from './webhook.dto';
import { WebhookService } from './webhook.service';

const ID = ApiParam({ name: 'id', type: 'integer', description: 'Webhook id' });
const DELIVERY = ApiParam({ name: 'delivery_id', type: 'integer', description: 'Delivery id' });

/** `/webhooks`: endpoints subscribed to changes, their deliveries, redelivery and ping (SPEC §17); administrators only. */
@ApiTags('webhooks')
@Controller(`${NAMESPACE}/webhooks`)
@RequiresLogin()
export class WebhookController {
  constructor(private readonly webhooks: WebhookService) {}

  @Get()
  @ApiAnswers(WebhookResponse, { list: 'webhooks', errors: [403, 404], description: 'A page of webhooks' })
  list(@Query() query: ListWebhooksQueryDto, @Context() context: RequestContext) {
    return this.webhooks.list(query, context);
  }

  @Post()
  @ApiAnswers(WebhookResponse, { status: 201, write: true, errors: [403, 413, 415], description: 'The created webhook, with its secret (shown this once)' })
  @HttpCode(201)
  create(@Body() body: CreateWebhookDto, @Context() context: RequestContext) {
    return this.webhooks.create(body, context);
  }

  @Get(ID_SEGMENT)
  @ApiAnswers(WebhookResponse, { errors: [403, 404] })
  @ID
  get(@Param('id', ParseIntPipe) id: number, @Context() context: RequestContext) {
    return this.webhooks.get(id, context);
  }

  @Patch(ID_SEGMENT)
  @ApiAnswers(WebhookResponse, { write: true, errors: [403, 404, 413, 415], description: 'The webhook as written (with the new secret after a rotation)' })
  @ID
  update(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateWebhookDto, @Context() context: RequestContext) {
    return this.webhooks.update(id, body, context);
  }

  @Delete(ID_SEGMENT)
  @ApiAnswers(WebhookResponse, { write: true, errors: [403, 404], description: 'The webhook as it was' })
  @ID
  remove(@Param('id', ParseIntPipe) id: number, @Context() context: RequestContext) {
    return this.webhooks.remove(id, context);
  }

  @Get(`${ID_SEGMENT}/deliveries`)
  @ApiAnswers(DeliveryResponse, { list: 'deliveries', errors: [403, 404], description: 'Its deliveries, latest first' })
  @ID
  deliveries(@Param('id', ParseIntPipe) id: number, @Query() query: ListWebhooksQueryDto, @Context() context: RequestContext) {
    return this.webhooks.deliveries(id, query, context);
  }

  @Post(`${ID_SEGMENT}/deliveries/:delivery_id(^\\d+$)/redeliver`)
  @ApiAnswers(DeliveryResponse, { status: 202, write: true, errors: [403, 404], description: 'The delivery, due again at once' })
  @HttpCode(202)
  @ID
  @DELIVERY
  redeliver(@Param('id', ParseIntPipe) id: number, @Param('delivery_id', ParseIntPipe) deliveryId: number, @Context() context: RequestContext) {
    return this.webhooks.redeliver(id, deliveryId, context);
  }

  @Post(`${ID_SEGMENT}/ping`)
  @ApiAnswers(DeliveryResponse, { status: 202, write: true, errors: [403, 404], description: 'The delivery of a webhook.ping message' })
  @HttpCode(202)
  @ID
  ping(@Param('id', ParseIntPipe) id: number, @Context() context: RequestContext) {
    return this.webhooks.ping(id, context);
  }
}
