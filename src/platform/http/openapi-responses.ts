import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, ApiResponseSchemaHost, getSchemaPath } from '@nestjs/swagger';

/** OpenAPI schema object (the package does not export its type from the root). */
export type SchemaObject = ApiResponseSchemaHost['schema'];

/**
 * Response documentation for controllers, so `/docs/openapi.json` describes every answer:
 * a response class (`dto/*.response.ts`, fields decorated with `@ApiProperty`) or an inline
 * schema, wrapped in the list shapes the API uses. test/e2e/openapi.e2e-spec.ts fails when a
 * route has no documented response.
 *
 *   @ApiJson(200, TemplateResponse, 'The template')
 *   @ApiCursorPage(ContactResponse, 'A page of contacts')
 *   @ApiEnvelope(200, SendResult, 'Accepted recipients and skipped ones')   // { success: true, data }
 *   @ApiNoContent('Deleted')
 */
export type Described = Type<unknown> | SchemaObject;

const isModel = (value: Described): value is Type<unknown> => typeof value === 'function';
const schema = (value: Described): SchemaObject => (isModel(value) ? ({ $ref: getSchemaPath(value) } as SchemaObject) : value);
const models = (...values: Described[]): Array<Type<unknown>> => values.filter(isModel);

/** One JSON response: a model or a schema. */
export const ApiJson = (status: number, body: Described, description: string) =>
  applyDecorators(ApiExtraModels(...models(body)), ApiResponse({ status, description, schema: schema(body) }));

/** A JSON array of the model. */
export const ApiList = (item: Described, description: string, status = 200) => ApiJson(status, { type: 'array', items: schema(item) }, description);

/** `{ success: true, data: <model> }`. */
export const ApiEnvelope = (status: number, data: Described, description: string) =>
  applyDecorators(
    ApiExtraModels(...models(data)),
    ApiResponse({ status, description, schema: { type: 'object', required: ['success', 'data'], properties: { success: { type: 'boolean', enum: [true] }, data: schema(data) } } }),
  );

/** `{ success: true }` and nothing else. */
export const ApiSuccess = (description: string, status = 200) =>
  ApiResponse({ status, description, schema: { type: 'object', required: ['success'], properties: { success: { type: 'boolean', enum: [true] } } } });

/** Cursor list (spec section 4): `{ data, cursor, hasMore, total }`. */
export const ApiCursorPage = (item: Described, description: string) =>
  applyDecorators(
    ApiExtraModels(...models(item)),
    ApiResponse({
      status: 200,
      description,
      schema: {
        type: 'object',
        required: ['data', 'cursor', 'hasMore', 'total'],
        properties: {
          data: { type: 'array', items: schema(item) },
          cursor: { type: 'string', nullable: true, description: 'Pass as `cursor` to get the next page; null on the last page' },
          hasMore: { type: 'boolean', description: 'Whether another page follows' },
          total: { type: 'integer', description: 'Total matching items, counted on the first page only (0 on later pages)' },
        },
      },
    }),
  );

/** No body (204). */
export const ApiNoContent = (description: string) => ApiResponse({ status: 204, description });

/** An HTML page (links opened from emails). */
export const ApiHtml = (description: string) => ApiResponse({ status: 200, description, content: { 'text/html': { schema: { type: 'string' } } } });
