// `kubectl create job NAME --image=IMAGE [-- COMMAND...]`: its checks and the Job it builds, field for field. See
// staging/src/k8s.io/kubectl/pkg/cmd/create/create_job.go (Complete, Validate, Run, createJob), v0.36.3.
import type { KubeObject } from '../../api/types';
import type { FlagSpec, ParsedFlags } from './flags';
import {
  bool, DRY_RUN_FLAG, dryRunStrategy, fieldManagerFlag, type BuiltCommand, NotSimulated, outputFormat, plainError,
  PRINT_FLAGS, str, stringOf, VALIDATE_FLAG, validationDirective,
} from './common';
import { nameFromCommandArgs, typedCreate } from './create-deployment';
import type { BuildContext, CommandDefinition } from './registry-types';

/** CREATE_JOB_FLAGS are `kubectl create job`'s own flags in 1.36. */
const CREATE_JOB_FLAGS: readonly FlagSpec[] = [
  ...PRINT_FLAGS, DRY_RUN_FLAG, VALIDATE_FLAG, bool('save-config'), fieldManagerFlag('kubectl-create'), str('from'), str('image'),
];

/** CREATE_JOB is `kubectl create job`. */
export const CREATE_JOB: CommandDefinition = {
  path: 'create job',
  flags: CREATE_JOB_FLAGS,
  build: buildCreateJob,
};

function buildCreateJob(flags: ParsedFlags, ctx: BuildContext): BuiltCommand {
  const { name, command } = nameFromCommandArgs(flags, 'create job');
  const { strategy: dryRun, warnings } = dryRunStrategy(flags);
  ctx.warnings.push(...warnings);
  const output = outputFormat(flags);
  const fieldValidation = validationDirective(flags);
  const image = stringOf(flags, { name: 'image', type: 'string' });
  const from = stringOf(flags, { name: 'from', type: 'string' });
  if ((image.length === 0 && from.length === 0) || (image.length !== 0 && from.length !== 0)) throw plainError('either --image or --from must be specified');
  if (command.length !== 0 && from.length !== 0) throw plainError('cannot specify --from and command');
  if (from.length !== 0) throw new NotSimulated('kubectl create job --from reads a CronJob from the cluster: it is not simulated; use --image, or run the CronJob\'s manifest');
  const job: KubeObject = {
    kind: 'Job', apiVersion: 'batch/v1',
    metadata: { name, ...(ctx.enforceNamespace ? { namespace: ctx.namespace } : {}) },
    spec: {
      // A PodTemplateSpec's ObjectMeta is a struct: with nothing set it is written `{}`.
      template: { metadata: {}, spec: { containers: [{ name, image, ...(command.length > 0 ? { command } : {}), resources: {} }], restartPolicy: 'Never' } },
    },
    status: {},
  } as KubeObject;
  return typedCreate(flags, ctx, 'create job', job, { dryRun, output, fieldValidation });
}
