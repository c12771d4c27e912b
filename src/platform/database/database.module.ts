import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions } from './data-source-options';

@Module({})
export class DatabaseModule {
  static forRoot(databaseUrl: string, poolSize: number): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl, poolSize), autoLoadEntities: true, migrations: [] })],
    };
  }
}
