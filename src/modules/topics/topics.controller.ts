import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../platform/http/openapi-errors';
import { ApiJson, ApiList, ApiNoContent } from '../../platform/http/openapi-responses';
import { CurrentProject, SecretKey } from '../auth';
import { CreateTopicDto } from './dto/create-topic.dto';
import { TopicResponse } from './dto/topic.response';
import { UpdateTopicDto } from './dto/update-topic.dto';
import { TopicsService } from './topics.service';
import { ParseUuidPipe } from '../../platform/http/parse-uuid.pipe';
import { topicNotFound } from './topics.errors';

const TopicId = new ParseUuidPipe(topicNotFound);

/** Like segments, topics are a resource every member uses (not a project setting). */
@ApiTags('topics')
@Controller('topics')
@SecretKey()
export class TopicsController {
  constructor(private readonly topics: TopicsService) {}

  @Get()
  @ApiOperation({ summary: 'List topics' })
  @ApiList(TopicResponse, 'Every topic of the project, by name (not paginated)')
  list(@CurrentProject() projectId: string): Promise<TopicResponse[]> {
    return this.topics.list(projectId);
  }

  @Post()
  @ApiOperation({ summary: 'Create a topic' })
  @ApiErrors(422, [409, 'Another topic of the project has the slug'])
  @ApiJson(201, TopicResponse, 'The topic')
  create(@CurrentProject() projectId: string, @Body() dto: CreateTopicDto): Promise<TopicResponse> {
    return this.topics.create(projectId, dto);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a topic' })
  @ApiErrors(404)
  @ApiJson(200, TopicResponse, 'The topic')
  get(@CurrentProject() projectId: string, @Param('id', TopicId) id: string): Promise<TopicResponse> {
    return this.topics.get(projectId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Update a topic' })
  @ApiErrors(404, 422)
  @ApiJson(200, TopicResponse, 'The updated topic')
  update(@CurrentProject() projectId: string, @Param('id', TopicId) id: string, @Body() dto: UpdateTopicDto): Promise<TopicResponse> {
    return this.topics.update(projectId, id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a topic' })
  @ApiErrors(404, [409, 'A scheduled or sending campaign targets it'])
  @HttpCode(204)
  @ApiNoContent('Deleted, with the contacts\' choices of its slug (409 while a scheduled or sending campaign targets it)')
  async remove(@CurrentProject() projectId: string, @Param('id', TopicId) id: string): Promise<void> {
    await this.topics.remove(projectId, id);
  }
}
