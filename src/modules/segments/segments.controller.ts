import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { CreateSegmentDto } from './dto/create-segment.dto';
import { AddSegmentMembersDto, RemoveSegmentMembersDto } from './dto/segment-members.dto';
import { UpdateSegmentDto } from './dto/update-segment.dto';
import { SegmentsService } from './segments.service';

@ApiTags('segments')
@Controller('segments')
@SecretKey()
export class SegmentsController {
  constructor(private readonly segments: SegmentsService) {}

  @Get()
  list(@CurrentProject() projectId: string) {
    return this.segments.list(projectId);
  }

  @Post()
  create(@CurrentProject() projectId: string, @Body() dto: CreateSegmentDto) {
    return this.segments.create(projectId, dto);
  }

  @Get(':id')
  get(@CurrentProject() projectId: string, @Param('id') id: string) {
    return this.segments.get(projectId, id);
  }

  @Patch(':id')
  update(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: UpdateSegmentDto) {
    return this.segments.update(projectId, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentProject() projectId: string, @Param('id') id: string): Promise<void> {
    await this.segments.remove(projectId, id);
  }

  @Get(':id/contacts')
  members(@CurrentProject() projectId: string, @Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.segments.members(projectId, id, query);
  }

  @Post(':id/members')
  @HttpCode(200)
  addMembers(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: AddSegmentMembersDto) {
    return this.segments.addMembers(projectId, id, dto);
  }

  @Delete(':id/members')
  @HttpCode(200)
  removeMembers(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: RemoveSegmentMembersDto) {
    return this.segments.removeMembers(projectId, id, dto);
  }

  @Post(':id/compute')
  @HttpCode(200)
  compute(@CurrentProject() projectId: string, @Param('id') id: string) {
    return this.segments.compute(projectId, id);
  }

  @Post(':id/refresh')
  @HttpCode(200)
  refresh(@CurrentProject() projectId: string, @Param('id') id: string) {
    return this.segments.refresh(projectId, id);
  }
}
