/* SPDX-License-Identifier: MIT */
/*
 * damier.h - the public C API of Damier, a draughts and checkers system:
 * one header per layer, all of them here for a program that wants the whole.
 */
#ifndef DAMIER_H
#define DAMIER_H

#include "damier/base.h"
#include "damier/rules.h"
#include "damier/notation.h"
#include "damier/game.h"
#include "damier/engine.h"
#include "damier/play.h"

#endif /* DAMIER_H */
