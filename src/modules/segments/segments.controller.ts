import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OffsetPageQuery } from '../../platform/http/offset-page.query';
import { ApiJson, ApiList, ApiNoContent } from '../../platform/http/openapi-responses';
import { CurrentProject, SecretKey } from '../auth';
import { CreateSegmentDto } from './dto/create-segment.dto';
import { PreviewSegmentDto } from './dto/preview-segment.dto';
import { AddSegmentMembersDto, RemoveSegmentMembersDto } from './dto/segment-members.dto';
import { AddMembersResponse, ComputeResponse, RefreshResponse, RemoveMembersResponse, SegmentMembersPage, SegmentResponse } from './dto/segment.response';
import { UpdateSegmentDto } from './dto/update-segment.dto';
import { SegmentsService } from './segments.service';
import { ApiErrors, ApiShortBadRequest } from '../../platform/http/openapi-errors';
import { ParseUuidPipe } from '../../platform/http/parse-uuid.pipe';
import { segmentNotFound } from './segments.errors';

const SegmentId = new ParseUuidPipe(segmentNotFound);

@ApiTags('segments')
@Controller('segments')
@SecretKey()
export class SegmentsController {
  constructor(private readonly segments: SegmentsService) {}

  @Get()
  @ApiOperation({ summary: 'List segments' })
  @ApiList(SegmentResponse, 'Every segment of the project, newest first (not paginated)')
  list(@CurrentProject() projectId: string): Promise<SegmentResponse[]> {
    return this.segments.list(projectId);
  }

  @Post()
  @ApiOperation({ summary: 'Create a segment' })
  @ApiShortBadRequest('name, or the condition of a DYNAMIC segment, is missing: `{ "error": "name is required" }`')
  @ApiErrors(422)
  @ApiJson(201, SegmentResponse, 'The segment, its memberCount counted')
  create(@CurrentProject() projectId: string, @Body() dto: CreateSegmentDto): Promise<SegmentResponse> {
    return this.segments.create(projectId, dto);
  }

  @Post('preview')
  @ApiOperation({ summary: 'Count the contacts a condition matches' })
  @ApiShortBadRequest('condition is missing: `{ "error": "condition is required (a filter tree object)" }`')
  @ApiErrors(422)
  @HttpCode(200)
  @ApiJson(200, RefreshResponse, 'How many contacts match the condition now; nothing is saved, no events')
  preview(@CurrentProject() projectId: string, @Body() dto: PreviewSegmentDto): Promise<RefreshResponse> {
    return this.segments.preview(projectId, dto.condition);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a segment' })
  @ApiErrors(404)
  @ApiJson(200, SegmentResponse, 'The segment with its cached memberCount')
  get(@CurrentProject() projectId: string, @Param('id', SegmentId) id: string): Promise<SegmentResponse> {
    return this.segments.get(projectId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Update a segment' })
  @ApiErrors(404, 422)
  @ApiJson(200, SegmentResponse, 'The updated segment')
  update(@CurrentProject() projectId: string, @Param('id', SegmentId) id: string, @Body() dto: UpdateSegmentDto): Promise<SegmentResponse> {
    return this.segments.update(projectId, id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a segment' })
  @ApiErrors(404, [409, 'A scheduled or sending campaign, or a filter of another segment, uses it'])
  @HttpCode(204)
  @ApiNoContent('Deleted (409 while a scheduled or sending campaign, or a filter of another segment, uses it)')
  async remove(@CurrentProject() projectId: string, @Param('id', SegmentId) id: string): Promise<void> {
    await this.segments.remove(projectId, id);
  }

  @Get(':id/contacts')
  @ApiOperation({ summary: 'List the members of a segment' })
  @ApiErrors(404, 422)
  @ApiJson(200, SegmentMembersPage, 'A page of members: evaluated now for a DYNAMIC segment, the stored members of a STATIC one')
  members(@CurrentProject() projectId: string, @Param('id', SegmentId) id: string, @Query() query: OffsetPageQuery): Promise<SegmentMembersPage> {
    return this.segments.members(projectId, id, query);
  }

  @Post(':id/members')
  @ApiOperation({ summary: 'Add members to a static segment' })
  @ApiErrors([400, 'The segment is DYNAMIC'], 404, 422)
  @HttpCode(200)
  @ApiJson(200, AddMembersResponse, 'What was added, and the addresses that have no contact')
  addMembers(@CurrentProject() projectId: string, @Param('id', SegmentId) id: string, @Body() dto: AddSegmentMembersDto): Promise<AddMembersResponse> {
    return this.segments.addMembers(projectId, id, dto);
  }

  @Delete(':id/members')
  @ApiOperation({ summary: 'Remove members from a static segment' })
  @ApiErrors([400, 'The segment is DYNAMIC'], 404, 422)
  @HttpCode(200)
  @ApiJson(200, RemoveMembersResponse, 'How many members were removed')
  removeMembers(@CurrentProject() projectId: string, @Param('id', SegmentId) id: string, @Body() dto: RemoveSegmentMembersDto): Promise<RemoveMembersResponse> {
    return this.segments.removeMembers(projectId, id, dto);
  }

  @Post(':id/compute')
  @ApiOperation({ summary: 'Recompute the membership of a dynamic segment' })
  @ApiErrors([400, 'The segment is STATIC'], 404, [422, 'The condition took longer than the segment statement timeout to evaluate'])
  @HttpCode(200)
  @ApiJson(200, ComputeResponse, 'Membership recomputed; entry and exit events emitted for a segment with trackMembership')
  compute(@CurrentProject() projectId: string, @Param('id', SegmentId) id: string): Promise<ComputeResponse> {
    return this.segments.compute(projectId, id);
  }

  @Post(':id/refresh')
  @ApiOperation({ summary: 'Refresh the member count of a segment' })
  @ApiErrors(404, [422, 'The condition took longer than the segment statement timeout to evaluate'])
  @HttpCode(200)
  @ApiJson(200, RefreshResponse, 'The member count, refreshed')
  refresh(@CurrentProject() projectId: string, @Param('id', SegmentId) id: string): Promise<RefreshResponse> {
    return this.segments.refresh(projectId, id);
  }
}
