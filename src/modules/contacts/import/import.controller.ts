import { Body, Controller, Get, HttpCode, Param, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject, SecretKey } from '../../auth';
import { ImportContactsDto } from './dto/import-contacts.dto';
import { ImportJobResponse } from './dto/import-job.response';
import { MAX_IMPORT_BYTES } from './import.errors';
import { ImportService, UploadedCsv } from './import.service';
import { ApiJson } from '../../../platform/http/openapi-responses';
import { ApiErrors } from '../../../platform/http/openapi-errors';

@ApiTags('contacts')
@Controller('contacts/import')
export class ImportController {
  constructor(private readonly imports: ImportService) {}

  /** Multer stops reading past the limit; Nest turns LIMIT_FILE_SIZE into 413 PAYLOAD_TOO_LARGE. */
  @SecretKey()
  @Post()
  @ApiOperation({ summary: 'Import contacts from a CSV file' })
  @ApiErrors(
    [400, 'No file part, or not a UTF-8 CSV with a header row naming an email column'],
    [413, 'The file is larger than 5 MB'],
    [422, 'The mapping is not a JSON object, names a column the file lacks or the email column, gives an empty, invalid or reserved key, or two columns the same key'],
  )
  @HttpCode(202)
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary', description: 'UTF-8 CSV, at most 5 MB, header row with an email column' },
        mapping: {
          type: 'string',
          description:
            'Optional column mapping, a JSON object: header cell (as written, without surrounding spaces) → the data key to store it under, or null to skip the column, e.g. {"First Name": "firstName", "Notes": null}. Columns it does not name keep the derived key (`First Name` → `first name`).',
        },
      },
    },
  })
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 10 } }))
  @ApiJson(202, { type: 'object', properties: { jobId: { type: 'string', description: 'Poll GET …/{jobId} for progress' }, status: { type: 'string', enum: ['queued'] } } }, 'Import queued')
  upload(@CurrentProject() projectId: string, @Body() body: ImportContactsDto, @UploadedFile() file?: UploadedCsv): Promise<{ jobId: string; status: 'queued' }> {
    return this.imports.create(projectId, file, body.mapping);
  }

  @SecretKey()
  @Get(':jobId')
  @ApiOperation({ summary: 'Get an import job' })
  @ApiErrors(404)
  @ApiJson(200, ImportJobResponse, 'Import progress and row errors')
  get(@CurrentProject() projectId: string, @Param('jobId') jobId: string): Promise<ImportJobResponse> {
    return this.imports.get(projectId, jobId);
  }
}
