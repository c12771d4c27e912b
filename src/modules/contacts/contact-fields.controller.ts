import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { ContactFieldsService } from './contact-fields.service';
import { FieldValuesQuery } from './dto/field-values.query';

/** Registered before ContactsController so `/contacts/fields` never reaches `/contacts/:id`. */
@Controller('contacts/fields')
@SecretKey()
export class ContactFieldsController {
  constructor(private readonly fields: ContactFieldsService) {}

  @Get()
  list(@CurrentProject() projectId: string) {
    return this.fields.list(projectId);
  }

  @Get(':field/values')
  values(@CurrentProject() projectId: string, @Param('field') field: string, @Query() query: FieldValuesQuery) {
    return this.fields.values(projectId, field, query);
  }

  @Get(':field/usage')
  usage(@CurrentProject() projectId: string, @Param('field') field: string) {
    return this.fields.usage(projectId, field);
  }

  @Delete(':field')
  @HttpCode(204)
  async remove(@CurrentProject() projectId: string, @Param('field') field: string): Promise<void> {
    await this.fields.remove(projectId, field);
  }
}
