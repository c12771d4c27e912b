import { Controller, Get, Param, Post, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiJson } from '../../platform/http/openapi-responses';
import { Public, SecretKey } from '../auth';
import { IMAGE_TYPES } from './upload-key';
import { MAX_IMAGE_BYTES } from './uploads.errors';
import { UploadedImage, UploadsService } from './uploads.service';
import { ApiErrors } from '../../platform/http/openapi-errors';

@ApiTags('uploads')
@Controller('uploads')
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  /** Multer stops reading past the limit; Nest turns LIMIT_FILE_SIZE into 413 PAYLOAD_TOO_LARGE. */
  @SecretKey()
  @Post('image')
  @ApiOperation({ summary: 'Upload an image' })
  @ApiErrors([400, 'No file part'], [413, 'The image is larger than 5 MB'], [415, 'Not a PNG, JPEG, GIF or WebP image'])
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary', description: 'PNG, JPEG, GIF or WebP, at most 5 MB' } } } })
  @ApiJson(
    201,
    { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri', description: 'Absolute public URL of the image, for <img src> in template bodies' } } },
    'Stored (a file over 5 MB is 413, a file that is not PNG, JPEG, GIF or WebP by its content 415)',
  )
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 10 } }))
  upload(@UploadedFile() file?: UploadedImage): Promise<{ url: string }> {
    return this.uploads.upload(file);
  }

  /** Public: email clients fetch these. Keys are random and never reused, so the bytes may be cached for a year. */
  @Public()
  @Get(':key')
  @ApiOperation({ summary: 'Get an uploaded image' })
  @ApiErrors([404, 'No such image'], 503)
  @ApiResponse({
    status: 200,
    description: 'The image bytes, cacheable for a year',
    content: Object.fromEntries(Object.values(IMAGE_TYPES).map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
  })
  async serve(@Param('key') key: string, @Res() res: Response): Promise<void> {
    const image = await this.uploads.read(key);
    res
      .status(200)
      .set({
        'Content-Type': image.contentType,
        'Content-Length': String(image.bytes.length),
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'",
      })
      .end(image.bytes);
  }
}
