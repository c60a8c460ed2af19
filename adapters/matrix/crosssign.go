package matrix

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"maunium.net/go/mautrix"
)

// crossSign makes the bot's device trusted the way clients now require
// (MSC4153): the account gets cross-signing keys (master, self-signing,
// user-signing; their private parts kept in the account's secret storage,
// opened by the recovery key) and the self-signing key signs this device.
//
//   - Nothing on the account yet: the keys are made and published (with
//     the bot's password when the homeserver asks for it), the recovery
//     key is written to Config.RecoveryKeyFile (0600) and printed once to
//     Config.Announce; it is never logged.
//   - Keys there and this device signed by them: nothing to do (a restart,
//     a restored database).
//   - Keys there, this device not signed (a new device): the recovery key
//     from the file opens the secret storage and signs it; without the
//     file the bot says so and goes on unsigned.
//
// Failures are logged and the bot keeps working, unsigned.
func (a *Adapter) crossSign(ctx context.Context) {
	if a.crypto == nil || a.cfg.NoCrossSigning {
		return
	}
	hasKeys, signed, err := a.deviceSigned(ctx)
	if err != nil {
		a.log.Warn("cross-signing: cannot read the account's keys", "err", err)
		return
	}
	if signed {
		a.log.Debug("cross-signing: this device is signed by the account's self-signing key")
		return
	}
	mach := a.crypto.Machine()
	if hasKeys {
		rk, err := os.ReadFile(a.cfg.RecoveryKeyFile)
		if err != nil {
			a.log.Warn("cross-signing: the account has cross-signing keys but the recovery key file cannot be read; this device stays unsigned",
				"file", a.cfg.RecoveryKeyFile, "err", err)
			return
		}
		key := strings.TrimSpace(string(rk))
		a.secrets.add(key)
		if err := mach.VerifyWithRecoveryKey(ctx, key); err != nil {
			a.log.Warn("cross-signing: signing this device with the recovery key failed", "err", a.secrets.scrubErr(err))
			return
		}
		a.log.Info("cross-signing: this device is now signed by the account's self-signing key")
		return
	}
	var uia mautrix.UIACallback
	if a.cfg.Password != "" {
		uia = func(r *mautrix.RespUserInteractive) any {
			return &mautrix.ReqUIAuthLogin{
				BaseAuthData: mautrix.BaseAuthData{Type: mautrix.AuthTypePassword, Session: r.Session},
				User:         a.cli.UserID.String(),
				Password:     a.cfg.Password,
			}
		}
	}
	rk, _, err := mach.GenerateAndUploadCrossSigningKeys(ctx, uia, "")
	if rk != "" {
		a.secrets.add(rk)
		// The keys may be in secret storage even when publishing failed:
		// keep the key that opens it.
		if werr := writeRecoveryKey(a.cfg.RecoveryKeyFile, rk); werr != nil {
			a.log.Error("cross-signing: save the recovery key", "file", a.cfg.RecoveryKeyFile, "err", werr)
		}
	}
	if err != nil {
		a.log.Warn("cross-signing: setting up the account's keys failed; this device stays unsigned", "err", a.secrets.scrubErr(err))
		return
	}
	if err := mach.SignOwnDevice(ctx, mach.OwnIdentity()); err != nil {
		a.log.Warn("cross-signing: signing this device failed", "err", err)
		return
	}
	if err := mach.SignOwnMasterKey(ctx); err != nil {
		a.log.Warn("cross-signing: signing the master key with this device failed", "err", err)
	}
	if a.cfg.Announce != nil {
		fmt.Fprintf(a.cfg.Announce, "\nzaria: cross-signing is set up for %s. Recovery key (shown only this once; also saved, readable only by you, in %s):\n\n    %s\n\nKeep it somewhere safe: with it a new device of the bot (or you, in a client logged in as the bot) can be signed.\n\n",
			a.cli.UserID, a.cfg.RecoveryKeyFile, rk)
	}
	a.log.Info("cross-signing set up; recovery key saved", "file", a.cfg.RecoveryKeyFile)
}

// deviceSigned asks the homeserver whether the account has cross-signing
// keys and whether this device carries its self-signing key's signature.
func (a *Adapter) deviceSigned(ctx context.Context) (hasKeys, signed bool, err error) {
	var resp *mautrix.RespQueryKeys
	err = a.retry(ctx, "query own keys", func() error {
		var err error
		resp, err = a.cli.QueryKeys(ctx, &mautrix.ReqQueryKeys{DeviceKeys: mautrix.DeviceKeysRequest{a.cli.UserID: mautrix.DeviceIDList{}}})
		return err
	})
	if err != nil {
		return false, false, err
	}
	ssk, ok := resp.SelfSigningKeys[a.cli.UserID]
	if _, master := resp.MasterKeys[a.cli.UserID]; !master || !ok {
		return false, false, nil
	}
	dev, ok := resp.DeviceKeys[a.cli.UserID][a.cli.DeviceID]
	if !ok {
		return true, false, nil
	}
	for kid := range ssk.Keys {
		if _, ok := dev.Signatures[a.cli.UserID][kid]; ok {
			return true, true, nil
		}
	}
	return true, false, nil
}

// writeRecoveryKey writes the recovery key to path, readable by its owner
// only; an older file there (keys since reset on the account) is kept as
// path.old.
func writeRecoveryKey(path, key string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		if err := os.Rename(path, path+".old"); err != nil {
			return err
		}
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	}
	if err != nil {
		return err
	}
	if _, err := f.WriteString(key + "\n"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
