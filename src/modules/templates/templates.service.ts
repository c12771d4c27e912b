import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainsService } from '../domains';
import type { CreateTemplateDto } from './dto/create-template.dto';
import { ListTemplatesQuery, MAX_PAGE_SIZE } from './dto/list-templates.query';
import { TEMPLATE_SORTS, TemplateSort } from './templates.rows';
import { TemplatePage, TemplateUsageResponse, toTemplateResponse } from './dto/template.response';
import type { UpdateTemplateDto } from './dto/update-template.dto';
import type { Template } from './entities/template.entity';
import { missingTemplateField, templateNotFound } from './templates.errors';
import { LiquidCheck } from './liquid-check';
import { TemplateUsage } from './template-usage';
import { TemplatesRepository } from './templates.repository';
import { isUuid } from '../../platform/http/parse-uuid.pipe';
import { ProjectSettingChecks } from '../projects';
import { usesConfirmUrl } from './rendering/confirm-url';

const REQUIRED = ['name', 'subject', 'body', 'from'] as const;

const blankToNull = (value: string | null | undefined): string | null | undefined =>
  value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim();

@Injectable()
export class TemplatesService {
  constructor(
    private readonly repository: TemplatesRepository,
    private readonly domains: DomainsService,
    private readonly templateUsage: TemplateUsage,
    private readonly liquid: LiquidCheck,
    settingChecks: ProjectSettingChecks,
  ) {
    settingChecks.registerConfirmationTemplate(async (projectId, templateId) => {
      const template = await this.findOne(projectId, templateId).catch(() => null);
      if (!template) return 'not_found';
      return usesConfirmUrl(template) ? 'ok' : 'without_link';
    });
  }

  async create(projectId: string, dto: CreateTemplateDto): Promise<Template> {
    for (const field of REQUIRED) {
      const value = dto[field];
      if (value === undefined || value === null || value.trim() === '') throw missingTemplateField(field);
    }
    await this.liquid.assertValid({ subject: dto.subject, body: dto.body });
    const from = dto.from!.trim().toLowerCase();
    await this.domains.assertSenderAllowed(projectId, from);
    return this.repository.insert(projectId, {
      name: dto.name!.trim(),
      description: blankToNull(dto.description) ?? null,
      subject: dto.subject!,
      body: dto.body!,
      fromAddress: from,
      fromName: blankToNull(dto.fromName) ?? null,
      replyTo: blankToNull(dto.replyTo)?.toLowerCase() ?? null,
      type: dto.type ?? 'MARKETING',
    });
  }

  async list(projectId: string, query: ListTemplatesQuery): Promise<TemplatePage> {
    const page = query.page ?? 1;
    const pageSize = Math.min(query.pageSize ?? 20, MAX_PAGE_SIZE);
    const sort: TemplateSort = (TEMPLATE_SORTS as readonly string[]).includes(query.sort ?? '') ? (query.sort as TemplateSort) : 'createdAt';
    const dir = query.dir?.toLowerCase() === 'asc' ? 'ASC' : 'DESC';
    const [rows, total] = await this.repository.page(projectId, {
      type: query.type,
      search: query.search?.trim() || undefined,
      sort,
      dir,
      offset: (page - 1) * pageSize,
      limit: pageSize,
    });
    return { data: rows.map(toTemplateResponse), page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
  }

  /**
   * The template of this project; another project's id, or a malformed one, is simply not found.
   * With `manager`, read inside the caller's transaction (on the embedded database a read on
   * another connection would wait for that transaction to end).
   */
  async findOne(projectId: string, id: string, manager?: EntityManager): Promise<Template> {
    if (!isUuid(id)) throw templateNotFound();
    const template = await this.repository.findOne(projectId, id, manager);
    if (!template) throw templateNotFound();
    return template;
  }

  async update(projectId: string, id: string, dto: UpdateTemplateDto): Promise<Template> {
    const template = await this.findOne(projectId, id);
    await this.liquid.assertValid({ subject: dto.subject, body: dto.body });
    if (dto.from !== undefined) {
      template.fromAddress = dto.from.trim().toLowerCase();
      await this.domains.assertSenderAllowed(projectId, template.fromAddress);
    }
    if (dto.name !== undefined) template.name = dto.name.trim();
    if (dto.subject !== undefined) template.subject = dto.subject;
    if (dto.body !== undefined) template.body = dto.body;
    if (dto.type !== undefined) template.type = dto.type;
    if (dto.description !== undefined) template.description = blankToNull(dto.description) ?? null;
    if (dto.fromName !== undefined) template.fromName = blankToNull(dto.fromName) ?? null;
    if (dto.replyTo !== undefined) template.replyTo = blankToNull(dto.replyTo)?.toLowerCase() ?? null;
    return this.repository.save(template);
  }

  async remove(projectId: string, id: string): Promise<void> {
    const template = await this.findOne(projectId, id);
    await this.repository.delete(projectId, template.id);
  }

  async duplicate(projectId: string, id: string): Promise<Template> {
    const { id: _id, projectId: _p, createdAt: _c, updatedAt: _u, ...rest } = await this.findOne(projectId, id);
    return this.repository.insert(projectId, { ...rest, name: `${rest.name} (copy)`.slice(0, 200) });
  }

  async usage(projectId: string, id: string): Promise<TemplateUsageResponse> {
    const template = await this.findOne(projectId, id);
    return this.templateUsage.of(projectId, template.id);
  }
}
