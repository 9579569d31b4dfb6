package main

// The three control-plane components of the release, each started in this process from its own
// options type and command-line flags, as its cobra command would (without the command's
// signal handling: the run's context stops them all).

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/pflag"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/klog/v2"

	apiserverapp "k8s.io/kubernetes/cmd/kube-apiserver/app"
	apiserveroptions "k8s.io/kubernetes/cmd/kube-apiserver/app/options"
	kcmapp "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	kcmoptions "k8s.io/kubernetes/cmd/kube-controller-manager/app/options"
	schedulerapp "k8s.io/kubernetes/cmd/kube-scheduler/app"
	scheduleroptions "k8s.io/kubernetes/cmd/kube-scheduler/app/options"
)

// parseFlags parses args into the named flag sets of a component.
func parseFlags(component string, sets cliflag.NamedFlagSets, args []string) error {
	fs := pflag.NewFlagSet(component, pflag.ContinueOnError)
	for _, name := range sets.Order {
		fs.AddFlagSet(sets.FlagSets[name])
	}
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%s flags: %w", component, err)
	}
	return nil
}

// runAPIServer builds kube-apiserver from its flags and serves until ctx ends; errors go to errc.
func runAPIServer(ctx context.Context, args []string, errc chan<- error) error {
	s := apiserveroptions.NewServerRunOptions()
	if err := parseFlags("kube-apiserver", s.Flags(), args); err != nil {
		return err
	}
	if err := s.GenericServerRunOptions.ComponentGlobalsRegistry.Set(); err != nil {
		return err
	}
	completed, err := s.Complete(ctx)
	if err != nil {
		return err
	}
	if errs := completed.Validate(); len(errs) > 0 {
		return fmt.Errorf("kube-apiserver options: %v", errs)
	}
	go func() { errc <- wrap("kube-apiserver", apiserverapp.Run(ctx, completed)) }()
	return nil
}

// runScheduler builds kube-scheduler from its flags and schedules until ctx ends. Should it stop, the
// API server goes on: a cluster whose authorization shuts the scheduler out is still a reference for requests.
func runScheduler(ctx context.Context, args []string) error {
	opts := scheduleroptions.NewOptions()
	if err := parseFlags("kube-scheduler", *opts.Flags, args); err != nil {
		return err
	}
	if err := opts.ComponentGlobalsRegistry.Set(); err != nil {
		return err
	}
	cc, sched, err := schedulerapp.Setup(ctx, opts)
	if err != nil {
		return fmt.Errorf("kube-scheduler: %w", err)
	}
	go func() { logStopped(wrap("kube-scheduler", schedulerapp.Run(ctx, cc, sched))) }()
	return nil
}

// runControllerManager builds kube-controller-manager from its flags and runs its controllers until ctx ends
// (should it stop, the API server goes on, as with the scheduler).
func runControllerManager(ctx context.Context, args []string) error {
	s, err := kcmoptions.NewKubeControllerManagerOptions()
	if err != nil {
		return err
	}
	known, off, aliases := kcmapp.KnownControllers(), kcmapp.ControllersDisabledByDefault(), kcmapp.ControllerAliases()
	sets := s.Flags(known, off, aliases)
	s.ParsedFlags = &sets
	if err := parseFlags("kube-controller-manager", sets, args); err != nil {
		return err
	}
	if err := s.ComponentGlobalsRegistry.Set(); err != nil {
		return err
	}
	c, err := s.Config(ctx, known, off, aliases)
	if err != nil {
		return fmt.Errorf("kube-controller-manager: %w", err)
	}
	go func() { logStopped(wrap("kube-controller-manager", kcmapp.Run(ctx, c.Complete()))) }()
	return nil
}

// logStopped reports a component that stopped with an error.
func logStopped(err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "refcluster: %v\n", err)
	}
}

// wrap names the component whose Run returned; a clean return at shutdown is no error.
func wrap(component string, err error) error {
	if err == nil {
		klog.InfoS("component stopped", "component", component)
		return nil
	}
	return fmt.Errorf("%s: %w", component, err)
}
