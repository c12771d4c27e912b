import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { OffsetPageQuery } from '../../platform/http/offset-page.query';
import { ApiJson, ApiList, ApiNoContent } from '../../platform/http/openapi-responses';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { CreateSegmentDto } from './dto/create-segment.dto';
import { PreviewSegmentDto } from './dto/preview-segment.dto';
import { AddSegmentMembersDto, RemoveSegmentMembersDto } from './dto/segment-members.dto';
import { AddMembersResponse, ComputeResponse, RefreshResponse, RemoveMembersResponse, SegmentMembersPage, SegmentResponse } from './dto/segment.response';
import { UpdateSegmentDto } from './dto/update-segment.dto';
import { SegmentsService } from './segments.service';

@ApiTags('segments')
@Controller('segments')
@SecretKey()
export class SegmentsController {
  constructor(private readonly segments: SegmentsService) {}

  @Get()
  @ApiList(SegmentResponse, 'Every segment of the project, newest first (not paginated)')
  list(@CurrentProject() projectId: string): Promise<SegmentResponse[]> {
    return this.segments.list(projectId);
  }

  @Post()
  @ApiJson(201, SegmentResponse, 'The segment, its memberCount counted')
  create(@CurrentProject() projectId: string, @Body() dto: CreateSegmentDto): Promise<SegmentResponse> {
    return this.segments.create(projectId, dto);
  }

  @Post('preview')
  @HttpCode(200)
  @ApiJson(200, RefreshResponse, 'How many contacts match the condition now; nothing is saved, no events')
  preview(@CurrentProject() projectId: string, @Body() dto: PreviewSegmentDto): Promise<RefreshResponse> {
    return this.segments.preview(projectId, dto.condition);
  }

  @Get(':id')
  @ApiJson(200, SegmentResponse, 'The segment with its cached memberCount')
  get(@CurrentProject() projectId: string, @Param('id') id: string): Promise<SegmentResponse> {
    return this.segments.get(projectId, id);
  }

  @Patch(':id')
  @ApiJson(200, SegmentResponse, 'The updated segment')
  update(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: UpdateSegmentDto): Promise<SegmentResponse> {
    return this.segments.update(projectId, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContent('Deleted (409 while a scheduled or sending campaign, or a filter of another segment, uses it)')
  async remove(@CurrentProject() projectId: string, @Param('id') id: string): Promise<void> {
    await this.segments.remove(projectId, id);
  }

  @Get(':id/contacts')
  @ApiJson(200, SegmentMembersPage, 'A page of members: evaluated now for a DYNAMIC segment, the stored members of a STATIC one')
  members(@CurrentProject() projectId: string, @Param('id') id: string, @Query() query: OffsetPageQuery): Promise<SegmentMembersPage> {
    return this.segments.members(projectId, id, query);
  }

  @Post(':id/members')
  @HttpCode(200)
  @ApiJson(200, AddMembersResponse, 'What was added, and the addresses that have no contact')
  addMembers(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: AddSegmentMembersDto): Promise<AddMembersResponse> {
    return this.segments.addMembers(projectId, id, dto);
  }

  @Delete(':id/members')
  @HttpCode(200)
  @ApiJson(200, RemoveMembersResponse, 'How many members were removed')
  removeMembers(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: RemoveSegmentMembersDto): Promise<RemoveMembersResponse> {
    return this.segments.removeMembers(projectId, id, dto);
  }

  @Post(':id/compute')
  @HttpCode(200)
  @ApiJson(200, ComputeResponse, 'Membership recomputed; entry and exit events emitted for a segment with trackMembership')
  compute(@CurrentProject() projectId: string, @Param('id') id: string): Promise<ComputeResponse> {
    return this.segments.compute(projectId, id);
  }

  @Post(':id/refresh')
  @HttpCode(200)
  @ApiJson(200, RefreshResponse, 'The member count, refreshed')
  refresh(@CurrentProject() projectId: string, @Param('id') id: string): Promise<RefreshResponse> {
    return this.segments.refresh(projectId, id);
  }
}
