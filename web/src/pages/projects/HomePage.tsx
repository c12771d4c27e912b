import { Navigate } from 'react-router';
import { useProjects } from '../../api/account';
import { QueryView } from '../../components/QueryView';
import { lastProject, projectPath } from '../../lib/project';

/** `/`: the last opened project, else the first one, else the form to create one. */
export default function HomePage() {
  const projects = useProjects();
  return (
    <QueryView query={projects} title="Could not load your projects" loadingLabel="Loading your projects…">
      {(list) => {
        if (list.length === 0) return <Navigate to="/projects/new" replace />;
        const remembered = lastProject();
        const target = list.find((p) => p.id === remembered) ?? list[0];
        return <Navigate to={projectPath(target.id)} replace />;
      }}
    </QueryView>
  );
}
